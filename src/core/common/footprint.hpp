// Memory accounting for cached configurations, generous on purpose: a cache bounded by these figures stays within
// its budget in real memory, allocator headers and rounding included.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace idcodec {

// What one heap allocation of `size` bytes takes at most: the block, its header and rounding.
constexpr std::size_t heap_bytes(std::size_t size) noexcept { return size == 0 ? 0 : size + 32; }

// The heap memory a container holds (a short string's inline buffer counted as if it were allocated).
template <class T, class A>
std::size_t heap_bytes(const std::vector<T, A>& values) noexcept {
    return heap_bytes(values.capacity() * sizeof(T));
}

template <class C, class T, class A>
std::size_t heap_bytes(const std::basic_string<C, T, A>& text) noexcept {
    return heap_bytes((text.capacity() + 1) * sizeof(C));
}

}  // namespace idcodec
