// Reading a number digit by digit without overflow, for every decoder (hashids, sqids, base-N).
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstdint>

namespace idcodec {

// value = value * base + digit, unless the result would exceed `max`: then false, and value is unchanged. The
// overflow is detected by the multiplication itself, with no division per digit.
inline bool append_digit(std::uint64_t& value, std::uint64_t base, std::uint64_t digit,
                         std::uint64_t max = UINT64_MAX) noexcept {
    std::uint64_t result;
    if (__builtin_mul_overflow(value, base, &result) || __builtin_add_overflow(result, digit, &result) || result > max)
        return false;
    value = result;
    return true;
}

}  // namespace idcodec
