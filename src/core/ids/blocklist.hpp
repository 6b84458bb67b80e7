// The Sqids blocklist rules compiled into an Aho-Corasick automaton over the alphabet's lowercased characters, so
// checking an ID costs one table step per character whatever the number of words. Before it, a set of the words'
// first three characters turns most IDs away at the cost of one bit test per character.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/footprint.hpp"
#include "core/common/page_allocator.hpp"

namespace idcodec {

class Blocklist {
public:
    // Refused beyond this many automaton cells (states x character classes), to keep memory bounded.
    static constexpr std::size_t max_cells = std::size_t{1} << 22;

    Blocklist() = default;  // blocks nothing

    // `words` already follow the spec's filter: ASCII lowercase, at least 3 characters. A word with a character
    // outside the (ASCII-lowercased) alphabet cannot occur in an ID and is left out.
    // Throws Error(program_limit) when the automaton would exceed max_cells.
    Blocklist(std::span<const std::string> words, std::string_view alphabet);

    // The spec's rules: an ID or word of at most 3 characters matches only whole; a word with a digit only as a
    // prefix or suffix; any other word anywhere. Case-insensitive. `id` holds alphabet characters only.
    bool blocks(std::string_view id) const noexcept;

    std::size_t footprint() const noexcept {
        return sizeof(*this) + heap_bytes(next_) + heap_bytes(depth_) + heap_bytes(openings_);
    }

private:
    enum Flag : std::uint8_t {
        ends_word = 1,             // a word ends exactly at this state (its own)
        ends_long_digit_word = 2,  // ... and it has more than 3 characters and a digit
        has_long_digit_word = 4,   // some digit word of more than 3 characters ends here (own or a suffix)
        has_long_plain_word = 8,   // some digit-free word of more than 3 characters ends here
    };

    // A transition names its target by the offset of the target's row in next_ (state x classes_) and carries the
    // target's flags in its top bits, so stepping is one load and no multiplication, and the flags come with it.
    static constexpr unsigned flag_shift = 28;
    static constexpr std::uint32_t row_mask = (std::uint32_t{1} << flag_shift) - 1;
    static_assert(max_cells <= row_mask, "a row offset must fit below the flags");

    std::uint32_t step(std::uint32_t transition, char c) const noexcept {
        return next_[(transition & row_mask) + class_of_[static_cast<unsigned char>(c)]];
    }
    static std::uint8_t flags_of(std::uint32_t transition) noexcept {
        return static_cast<std::uint8_t>(transition >> flag_shift);
    }
    std::uint32_t depth_of(std::uint32_t transition) const noexcept {
        return depth_[(transition & row_mask) / classes_];
    }

    // Every word is at least 3 characters long and so starts with a trigram of classes, (a << 12 | b << 6 | c) in
    // this bit set: an ID with no such trigram holds no word. Kept for alphabets of at most 64 classes (32 KB).
    static constexpr unsigned class_bits = 6;
    static constexpr std::uint32_t trigram_mask = (std::uint32_t{1} << 3 * class_bits) - 1;
    bool may_hold_a_word(std::string_view id) const noexcept;

    std::size_t classes_ = 0;
    std::array<std::uint8_t, 256> class_of_{};
    PageVector<std::uint64_t> openings_;  // the trigram set; empty for larger alphabets
    PageVector<std::uint32_t> next_;      // the automaton: state x class -> transition
    PageVector<std::uint32_t> depth_;     // length of the string a state stands for
};

}  // namespace idcodec
