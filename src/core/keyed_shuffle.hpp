// The keyed shuffle of hashids ("consistent shuffle"), also offered on its own as alphabet_shuffle.
#pragma once
#include "core/no_postgres.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace idcodec {

// Walks the characters from the end, swapping each with a position derived from the key's code points.
// Only the first size()-1 key characters matter, so a longer key is equivalent to its prefix.
inline void keyed_shuffle(std::span<char32_t> chars, std::u32string_view key) {
    if (key.empty()) return;
    std::uint64_t sum = 0;
    std::size_t k = 0;
    for (std::size_t i = chars.size(); i-- > 1; k = (k + 1) % key.size()) {
        const std::uint64_t code = key[k];
        sum += code;
        std::swap(chars[i], chars[(code + k + sum) % i]);
    }
}

inline std::u32string keyed_shuffled(std::u32string chars, std::u32string_view key) {
    keyed_shuffle(chars, key);
    return chars;
}

}  // namespace idcodec
