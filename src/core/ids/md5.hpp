// MD5 (RFC 1321), for short-URL codes derived from a URL: a fingerprint, not a security measure.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idcodec {

class Md5 {
public:
    using Digest = std::array<std::uint8_t, 16>;

    Md5& update(std::string_view data);
    Digest finish();

    static Digest of(std::string_view data) { return Md5().update(data).finish(); }

private:
    void block(const std::uint8_t* data);

    std::array<std::uint32_t, 4> state_{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t length_ = 0;  // bytes
};

}  // namespace idcodec
