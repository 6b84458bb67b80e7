// The Sqids blocklist rules compiled into an Aho-Corasick automaton over the alphabet's lowercased characters, so
// checking an ID costs one table step per character whatever the number of words.
#pragma once
#include "core/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/footprint.hpp"
#include "core/page_allocator.hpp"

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
        return sizeof(*this) + heap_bytes(next_) + heap_bytes(depth_) + heap_bytes(flags_);
    }

private:
    enum Flag : std::uint8_t {
        ends_word = 1,             // a word ends exactly at this state (its own)
        ends_long_digit_word = 2,  // ... and it has more than 3 characters and a digit
        has_long_digit_word = 4,   // some digit word of more than 3 characters ends here (own or a suffix)
        has_long_plain_word = 8,   // some digit-free word of more than 3 characters ends here
    };

    std::uint32_t step(std::uint32_t state, char c) const noexcept {
        return next_[state * classes_ + class_of_[static_cast<unsigned char>(c)]];
    }

    std::size_t classes_ = 0;
    std::array<std::uint8_t, 256> class_of_{};
    PageVector<std::uint32_t> next_;   // the automaton: state x class -> state
    PageVector<std::uint32_t> depth_;  // length of the string a state stands for
    PageVector<std::uint8_t> flags_;
};

}  // namespace idcodec
