// Encrypted public IDs: a bigint's numerals in the radix of an alphabet, zero-padded on the left to a fixed length
// and encrypted with FF1, written with the alphabet. The padding is what authenticates a code: one that decrypts
// to a value above 2^63 - 1 was not made with this key and tweak.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/common/code_point_index.hpp"
#include "core/crypt/ff1.hpp"

namespace idcodec::crypt {

class IdCipher {
public:
    static constexpr std::uint64_t max_number = INT64_MAX;

    // `alphabet` as UTF-8: 2 ... 65536 characters, none repeated (a repeat would make two codes of one ID).
    // Throws Error(invalid_parameter) for a bad key or alphabet.
    IdCipher(std::span<const std::uint8_t> key, std::string_view alphabet);

    // The shortest length at which a code nobody made decodes with probability below one in a million:
    // radix^length > 2^63 * 10^6 (14 for 62 characters). Throws Error(invalid_parameter) for a radix outside
    // 2 ... 65536.
    static std::size_t default_length(std::uint32_t radix);
    std::uint32_t radix() const noexcept { return static_cast<std::uint32_t>(alphabet_.size()); }

    // Throws Error(out_of_range) for a number above 2^63 - 1, Error(invalid_parameter) for a length the number does
    // not fit in or that FF1 refuses (see Ff1::check_domain).
    std::string encode(std::uint64_t number, std::span<const std::uint8_t> tweak, std::size_t length) const;
    // Nothing for a code that is not `length` characters of the alphabet or that decrypts above 2^63 - 1; throws
    // Error(invalid_parameter) only for a length FF1 refuses.
    std::optional<std::uint64_t> decode(std::string_view code, std::span<const std::uint8_t> tweak,
                                        std::size_t length) const;

private:
    Ff1 ff1_;
    std::u32string alphabet_;
    CodePointIndex index_;
};

}  // namespace idcodec::crypt
