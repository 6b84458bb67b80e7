// Position of each character of an alphabet, looked up by code point: a table for ASCII, a sorted list beyond.
#pragma once
#include "core/common/no_postgres.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/footprint.hpp"

namespace idcodec {

class CodePointIndex {
public:
    static constexpr std::uint32_t npos = UINT32_MAX;

    CodePointIndex() { ascii_.fill(npos); }

    // Numbers the characters 0, 1, 2, ... in order; a repeated character keeps the number of its first occurrence.
    explicit CodePointIndex(std::u32string_view characters) : CodePointIndex() {
        for (std::uint32_t i = 0; i < characters.size(); ++i) {
            const char32_t cp = characters[i];
            if (cp < ascii_.size()) {
                if (ascii_[cp] == npos) ascii_[cp] = i;
            } else {
                others_.emplace_back(cp, i);
            }
        }
        std::stable_sort(others_.begin(), others_.end(),
                         [](const Entry& a, const Entry& b) { return a.first < b.first; });
        others_.erase(std::unique(others_.begin(), others_.end(),
                                  [](const Entry& a, const Entry& b) { return a.first == b.first; }),
                      others_.end());
    }

    std::uint32_t find(char32_t cp) const noexcept {
        if (cp < ascii_.size()) return ascii_[cp];
        const auto it = std::lower_bound(others_.begin(), others_.end(), cp,
                                         [](const Entry& entry, char32_t key) { return entry.first < key; });
        return it != others_.end() && it->first == cp ? it->second : npos;
    }

    bool contains(char32_t cp) const noexcept { return find(cp) != npos; }

    std::size_t footprint() const noexcept { return sizeof(*this) + heap_bytes(others_); }

private:
    using Entry = std::pair<char32_t, std::uint32_t>;

    std::array<std::uint32_t, 128> ascii_;
    std::vector<Entry> others_;
};

}  // namespace idcodec
