// FF1 over the characters of an alphabet: the numeral of a character is its position in the alphabet, and the
// radix the alphabet's size. Two uses: text of the alphabet encrypted to text of the alphabet of the same length
// (ff1_encrypt), and encrypted IDs (idcrypt): a bigint's numerals, zero-padded on the left to a fixed length,
// encrypted and written with the alphabet. The padding is what authenticates an ID's code: one that decrypts to a
// value above 2^63 - 1 was not made with this key and tweak.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/code_point_index.hpp"
#include "core/common/divisor.hpp"
#include "core/common/utf8.hpp"
#include "core/crypt/ff1.hpp"

namespace idcodec::crypt {

class AlphabetCipher {
public:
    static constexpr std::uint64_t max_number = INT64_MAX;

    // `alphabet` as UTF-8: 2 ... 65536 characters, none repeated (a repeat would give one text two encryptions).
    // Throws Error(invalid_parameter) for a bad key or alphabet.
    AlphabetCipher(std::span<const std::uint8_t> key, std::string_view alphabet);

    std::uint32_t radix() const noexcept { return radix_.value(); }
    // default_id_length(radix()), computed once
    std::size_t default_id_length() const noexcept { return default_id_length_; }

    // Text of the alphabet (UTF-8) encrypted or decrypted; nothing when it has a character outside the alphabet.
    // Throws Error(invalid_parameter) for a length FF1 refuses (see Ff1::check_domain) or a tweak too long.
    std::optional<std::string> encrypt(std::string_view text, std::span<const std::uint8_t> tweak) const;
    std::optional<std::string> decrypt(std::string_view text, std::span<const std::uint8_t> tweak) const;

    // The shortest ID length at which a code nobody made decodes with probability below one in a million:
    // radix^length > 2^63 * 10^6 (14 for 62 characters). Throws Error(invalid_parameter) for a radix outside
    // 2 ... 65536.
    static std::size_t default_id_length(std::uint32_t radix);

    // The longest ID: its halves' values stay below 2^64, so FF1 runs on them as machine integers (20 characters
    // for 62, 126 for 2, far above the default lengths). Throws as default_id_length does.
    static std::size_t max_id_length(std::uint32_t radix);

    // Throws Error(out_of_range) for a number above 2^63 - 1, Error(invalid_parameter) for a length the number does
    // not fit in, that FF1 refuses or above max_id_length.
    // The code replaces `code`'s contents (whose memory is reused: the shim encodes every row into one string).
    void encode_id(std::uint64_t number, std::span<const std::uint8_t> tweak, std::size_t length,
                   std::string& code) const;
    std::string encode_id(std::uint64_t number, std::span<const std::uint8_t> tweak, std::size_t length) const {
        std::string code;
        encode_id(number, tweak, length, code);
        return code;
    }
    // Nothing for a code that is not `length` characters of the alphabet or that decrypts above 2^63 - 1; throws
    // Error(invalid_parameter) only for a length encode_id refuses.
    std::optional<std::uint64_t> decode_id(std::string_view code, std::span<const std::uint8_t> tweak,
                                           std::size_t length) const;

    std::size_t footprint() const noexcept;

private:
    // The numeral of the character at `pos` of UTF-8 text, which it passes; npos for one outside the alphabet.
    std::uint32_t numeral_at(std::string_view text, std::size_t& pos) const noexcept {
        return index_.find(utf8::next(text, pos));
    }
    // The numerals of UTF-8 text; nothing for a character outside the alphabet (or invalid UTF-8).
    std::optional<std::vector<std::uint32_t>> numerals_of(std::string_view text) const;
    void append_text(std::span<const std::uint32_t> numerals, std::string& out) const;
    // The `count` numerals of `value` (below radix^count), most significant first, appended as characters.
    void append_number(std::uint64_t value, std::size_t count, std::string& out) const;
    std::optional<std::string> run(std::string_view text, std::span<const std::uint8_t> tweak, bool encrypting) const;
    // The IDs of `length` characters; throws for a length encode_id refuses.
    Ff1::HalvesDomain id_domain(std::size_t length) const;

    Ff1 ff1_;
    std::u32string alphabet_;
    CodePointIndex index_;
    Divisor radix_;
    std::string ascii_;  // the alphabet when every character is ASCII (written without encoding), else empty
    std::size_t default_id_length_;
    Ff1::HalvesDomain default_id_domain_;  // prepared, as most calls use it
};

}  // namespace idcodec::crypt
