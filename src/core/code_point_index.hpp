// Position of each character of an alphabet, looked up by code point: a table for ASCII, a sorted list beyond.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace idcodec {

class CodePointIndex {
public:
    static constexpr std::uint32_t npos = UINT32_MAX;

    CodePointIndex() { ascii_.fill(npos); }

    // Numbers the characters 0, 1, 2, ... in order; a character seen before keeps its first number.
    explicit CodePointIndex(std::u32string_view characters) : CodePointIndex() {
        for (std::uint32_t i = 0; i < characters.size(); ++i) insert(characters[i], i);
    }

    // Keeps an existing entry, so the first occurrence wins.
    void insert(char32_t cp, std::uint32_t value) {
        if (cp < ascii_.size()) {
            if (ascii_[cp] == npos) ascii_[cp] = value;
            return;
        }
        const auto it = lower_bound(cp);
        if (it == others_.end() || it->first != cp) others_.insert(it, {cp, value});
    }

    std::uint32_t find(char32_t cp) const noexcept {
        if (cp < ascii_.size()) return ascii_[cp];
        const auto it = lower_bound(cp);
        return it != others_.end() && it->first == cp ? it->second : npos;
    }

    bool contains(char32_t cp) const noexcept { return find(cp) != npos; }

private:
    using Entry = std::pair<char32_t, std::uint32_t>;

    std::vector<Entry>::const_iterator lower_bound(char32_t cp) const noexcept {
        return std::lower_bound(others_.begin(), others_.end(), cp,
                                [](const Entry& entry, char32_t key) { return entry.first < key; });
    }

    std::array<std::uint32_t, 128> ascii_;
    std::vector<Entry> others_;
};

}  // namespace idcodec
