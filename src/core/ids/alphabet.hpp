// An alphabet of distinct characters (code points) for the compact identifiers: base-N numbers, 6-bit packing of
// ObjectIds and UUIDs, short-URL codes.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/common/code_point_index.hpp"
#include "core/common/divisor.hpp"
#include "core/common/footprint.hpp"
#include "core/common/utf8.hpp"

namespace idcodec {

class Alphabet {
public:
    // `utf8` must hold at least `min_size` characters (and never fewer than 1), none twice; `name` prefixes the
    // error messages (Error(invalid_parameter)).
    Alphabet(std::string_view utf8, std::string_view name, std::size_t min_size = 2);

    std::size_t size() const noexcept { return characters_.size(); }
    std::u32string_view characters() const noexcept { return characters_; }
    const Divisor& divisor() const noexcept { return divisor_; }
    // The characters as bytes when every one is ASCII (the same bytes in every server encoding), else empty.
    std::string_view ascii() const noexcept { return ascii_; }

    void append(std::string& out, std::size_t digit) const { utf8::append(out, characters_[digit]); }

    // Appends the characters of digits[(i + rotation) % count] for i = 0..count-1; count <= 64, rotation < count.
    void append_digits(std::string& out, const std::uint32_t* digits, std::size_t count,
                       std::size_t rotation = 0) const;

    // For an ASCII alphabet: the digit of any byte (at most 127), or not_a_digit (which has the high bit set),
    // without a branch. For any other alphabet every byte is not_a_digit.
    static constexpr std::uint8_t not_a_digit = 0xFF;
    std::uint8_t ascii_digit(unsigned char byte) const noexcept { return ascii_digits_[byte]; }

    // The digit of each character of `text`, in order; nothing if one is not in the alphabet or not UTF-8.
    template <class Visit>
    bool for_each_digit(std::string_view text, Visit&& visit) const {
        for (std::size_t pos = 0; pos < text.size();) {
            const std::uint32_t digit = index_.find(utf8::next(text, pos));
            if (digit == CodePointIndex::npos) return false;
            visit(digit);
        }
        return true;
    }

    // Throws Error(invalid_parameter) unless the alphabet has exactly `size` characters.
    void require_size(std::size_t size) const;

    std::size_t footprint() const noexcept {
        return heap_bytes(sizeof(*this)) + heap_bytes(name_) + heap_bytes(characters_) + heap_bytes(ascii_) +
               index_.footprint();
    }

private:
    std::string name_;
    std::u32string characters_;
    std::string ascii_;  // the characters as bytes when all are ASCII (the common case), else empty
    std::array<std::uint8_t, 256> ascii_digits_;  // by byte; all not_a_digit unless ascii_ is set
    CodePointIndex index_;
    Divisor divisor_{2};
};

}  // namespace idcodec
