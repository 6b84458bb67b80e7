// Shared helpers of the libFuzzer targets: cutting the input into fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace idcodec::fuzz {

// Splits off the text up to the next 0xFF byte (all of it when there is none) and removes it and that byte from input.
inline std::string_view take_field(std::string_view& input) {
    const std::size_t end = input.find('\xff');
    const std::string_view field = input.substr(0, end);
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
    return field;
}

// Up to `limit` numbers from the input's whole 8-byte groups, in host byte order.
inline std::vector<std::uint64_t> read_numbers(std::string_view input, std::size_t limit) {
    std::vector<std::uint64_t> numbers;
    for (std::size_t i = 0; i + 8 <= input.size() && numbers.size() < limit; i += 8) {
        std::uint64_t value;
        std::memcpy(&value, input.data() + i, 8);
        numbers.push_back(value);
    }
    return numbers;
}

}  // namespace idcodec::fuzz
