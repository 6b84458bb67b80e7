// Reading hexadecimal digits (ObjectIds, hashids' hex input, keys).
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace idcodec {

// Hex digit values by byte, -1 for anything else: a table, because branching on random digits mispredicts.
inline constexpr std::array<std::int8_t, 256> hex_values = [] {
    std::array<std::int8_t, 256> values{};
    values.fill(-1);
    for (int i = 0; i < 10; ++i) values['0' + i] = static_cast<std::int8_t>(i);
    for (int i = 0; i < 6; ++i) values['a' + i] = values['A' + i] = static_cast<std::int8_t>(10 + i);
    return values;
}();

// The value of a hex digit (either case), -1 for any other character.
constexpr int hex_value(char c) noexcept { return hex_values[static_cast<unsigned char>(c)]; }

// `bytes` from exactly twice as many hex digits; false (and `bytes` unspecified) for anything else.
inline bool parse_hex(std::string_view hex, std::span<std::uint8_t> bytes) noexcept {
    if (hex.size() != 2 * bytes.size()) return false;
    int invalid = 0;  // checked once at the end, keeping the loop free of branches
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
        invalid |= high | low;
        bytes[i] = static_cast<std::uint8_t>(high << 4 | low);
    }
    return invalid >= 0;
}

}  // namespace idcodec
