// Memory that holds a secret (a key, or settings that include one) is erased before it is freed.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string.h>  // explicit_bzero
#include <vector>

namespace idcodec {

// Unlike memset before a free, never optimized away. (Empty memory may have no address: nothing to erase.)
inline void wipe(void* data, std::size_t size) noexcept {
    if (size != 0) explicit_bzero(data, size);
}

// Bytes of a key, erased when destroyed. Their size is fixed when made, so they are never moved by a reallocation.
class SecretBytes {
public:
    explicit SecretBytes(std::size_t size) : bytes_(size) {}
    ~SecretBytes() { wipe(bytes_.data(), bytes_.size()); }
    SecretBytes(SecretBytes&&) noexcept = default;  // the moved-from vector keeps nothing
    SecretBytes& operator=(SecretBytes&&) = delete;
    SecretBytes(const SecretBytes&) = delete;
    SecretBytes& operator=(const SecretBytes&) = delete;

    std::span<std::uint8_t> bytes() noexcept { return bytes_; }
    std::span<const std::uint8_t> bytes() const noexcept { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
};

}  // namespace idcodec
