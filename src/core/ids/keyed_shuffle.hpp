// The keyed shuffle of hashids ("consistent shuffle"), also offered on its own as alphabet_shuffle.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace idcodec {

// Walks the characters from the end, swapping each with a position derived from the key's code points.
// Only the first size()-1 key characters matter, so a longer key is equivalent to its prefix. Key: a sequence of
// code points with size() and operator[] (a std::u32string_view, or a key made of parts that is never built).
template <class Key>
void keyed_shuffle(std::span<char32_t> chars, const Key& key) {
    if (key.size() == 0) return;
    std::uint64_t sum = 0;
    std::size_t k = 0;
    for (std::size_t i = chars.size(); i-- > 1; k = k + 1 == key.size() ? 0 : k + 1) {
        const std::uint64_t code = key[k];
        sum += code;
        const std::uint64_t position = code + k + sum;
        // A 32-bit division where the operands allow (always, for alphabets and keys of ordinary size): it takes a
        // fraction of the time of a 64-bit one, and hashids shuffles once per number beyond its memo.
        const std::size_t j = position <= UINT32_MAX && i <= UINT32_MAX
                                  ? static_cast<std::uint32_t>(position) % static_cast<std::uint32_t>(i)
                                  : position % i;
        std::swap(chars[i], chars[j]);
    }
}

inline std::u32string keyed_shuffled(std::u32string chars, std::u32string_view key) {
    keyed_shuffle(std::span<char32_t>(chars), key);
    return chars;
}

}  // namespace idcodec
