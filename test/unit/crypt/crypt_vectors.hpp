// What the FF1 tests read from test/vectors/ff1/: keys and tweaks in hex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idcodec::test {

inline std::vector<std::uint8_t> from_hex(const std::string& hex) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t k = 0; k + 1 < hex.size(); k += 2)
        bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(k, 2), nullptr, 16)));
    return bytes;
}

}  // namespace idcodec::test
