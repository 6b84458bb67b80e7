// Eight bytes read or written most significant first (network order), whatever the host's order.
#pragma once
#include "core/common/no_postgres.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

namespace idcodec {

// The host's word whose bytes in memory are `value`'s, most significant first (and back: the map is its own inverse).
constexpr std::uint64_t native_of_be(std::uint64_t value) noexcept {
    return std::endian::native == std::endian::little ? __builtin_bswap64(value) : value;
}

inline std::uint64_t load_be64(const std::uint8_t* in) noexcept {
    std::uint64_t value;
    std::memcpy(&value, in, sizeof value);
    return native_of_be(value);
}

inline void store_be64(std::uint8_t* out, std::uint64_t value) noexcept {
    value = native_of_be(value);
    std::memcpy(out, &value, sizeof value);
}

}  // namespace idcodec
