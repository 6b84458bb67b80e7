#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/footprint.hpp"
#include "core/crypt/alphabet_cipher.hpp"

namespace idcodec::crypt {

namespace {

// The alphabet's characters, within FF1's radix limits; checked before the cipher's other members are built on it.
std::u32string alphabet_characters(std::string_view alphabet) {
    // More bytes than 65536 characters can take is refused before it is decoded.
    if (alphabet.size() > 4 * std::size_t{Ff1::max_radix})
        throw Error(ErrorKind::invalid_parameter, "FF1 alphabet must have 2 to 65536 characters");
    std::optional<std::u32string> characters = utf8::decode(alphabet);
    if (!characters) throw Error(ErrorKind::invalid_parameter, "FF1 alphabet is not valid UTF-8");
    if (characters->size() < Ff1::min_radix || characters->size() > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "FF1 alphabet must have 2 to 65536 characters (got " + std::to_string(characters->size()) + ")");
    return std::move(*characters);
}

void check_radix(std::uint32_t radix) {
    if (radix < Ff1::min_radix || radix > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "idcrypt radix must be between 2 and 65536 (got " + std::to_string(radix) + ")");
}

}  // namespace

AlphabetCipher::AlphabetCipher(std::span<const std::uint8_t> key, std::string_view alphabet)
    : ff1_(key),
      alphabet_(alphabet_characters(alphabet)),
      index_(alphabet_),
      radix_(static_cast<std::uint32_t>(alphabet_.size())),
      default_id_length_(default_id_length(radix_.value())),
      default_id_domain_(*Ff1::halves_domain(radix_.value(), default_id_length_)) {
    for (std::uint32_t k = 0; k < alphabet_.size(); ++k)
        if (index_.find(alphabet_[k]) != k)
            throw Error(ErrorKind::invalid_parameter, "FF1 alphabet must not repeat a character");
    if (std::all_of(alphabet_.begin(), alphabet_.end(), [](char32_t c) { return c < 0x80; }))
        ascii_.assign(alphabet_.begin(), alphabet_.end());
}

std::size_t AlphabetCipher::footprint() const noexcept {
    // The cipher context and key schedule OpenSSL allocates, counted generously.
    constexpr std::size_t openssl_context = 1024;
    return sizeof(*this) + openssl_context + heap_bytes(alphabet_) + index_.footprint() - sizeof(index_);
}

std::optional<std::vector<std::uint32_t>> AlphabetCipher::numerals_of(std::string_view text) const {
    std::vector<std::uint32_t> numerals;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::uint32_t numeral = numeral_at(text, pos);
        if (numeral == CodePointIndex::npos) return std::nullopt;
        numerals.push_back(numeral);
    }
    return numerals;
}

void AlphabetCipher::append_text(std::span<const std::uint32_t> numerals, std::string& out) const {
    for (const std::uint32_t numeral : numerals) utf8::append(out, alphabet_[numeral]);
}

std::optional<std::string> AlphabetCipher::run(std::string_view text, std::span<const std::uint8_t> tweak,
                                               bool encrypting) const {
    // The length is checked first, so a text too long for FF1 is refused before it is read.
    Ff1::check_domain(radix(), utf8::length(text));
    const std::optional<std::vector<std::uint32_t>> numerals = numerals_of(text);
    if (!numerals) return std::nullopt;
    std::vector<std::uint32_t> result(numerals->size());
    if (encrypting) {
        ff1_.encrypt(*numerals, radix(), tweak, result);
    } else {
        ff1_.decrypt(*numerals, radix(), tweak, result);
    }
    std::string out;
    append_text(result, out);
    return out;
}

std::optional<std::string> AlphabetCipher::encrypt(std::string_view text, std::span<const std::uint8_t> tweak) const {
    return run(text, tweak, true);
}

std::optional<std::string> AlphabetCipher::decrypt(std::string_view text, std::span<const std::uint8_t> tweak) const {
    return run(text, tweak, false);
}

std::size_t AlphabetCipher::default_id_length(std::uint32_t radix) {
    check_radix(radix);
    using u128 = unsigned __int128;
    const u128 threshold = (u128{1} << 63) * 1'000'000;
    std::size_t length = 0;
    for (u128 domain = 1; domain <= threshold; domain *= radix) ++length;
    return length;
}

std::size_t AlphabetCipher::max_id_length(std::uint32_t radix) {
    check_radix(radix);
    std::size_t length = default_id_length(radix);
    while (Ff1::halves_domain(radix, length + 1)) ++length;
    return length;
}

Ff1::HalvesDomain AlphabetCipher::id_domain(std::size_t length) const {
    if (length == default_id_length_) return default_id_domain_;
    std::optional<Ff1::HalvesDomain> domain = Ff1::halves_domain(radix(), length);
    if (!domain)
        throw Error(ErrorKind::invalid_parameter,
                    "idcrypt length must be at most " + std::to_string(max_id_length(radix())) + " with " +
                        std::to_string(radix()) + " characters (got " + std::to_string(length) + ")");
    return *domain;
}

void AlphabetCipher::append_number(std::uint64_t value, std::size_t count, std::string& out) const {
    std::uint32_t numerals[64];  // a half below 2^64 has at most 64 numerals
    for (std::size_t k = count; k-- > 0;) {
        std::uint64_t numeral;
        value = radix_.divide(value, numeral);
        numerals[k] = static_cast<std::uint32_t>(numeral);
    }
    if (!ascii_.empty()) {
        const std::size_t at = out.size();
        out.resize(at + count);
        for (std::size_t k = 0; k < count; ++k) out[at + k] = ascii_[numerals[k]];
    } else {
        append_text(std::span<const std::uint32_t>(numerals, count), out);
    }
}

void AlphabetCipher::encode_id(std::uint64_t number, std::span<const std::uint8_t> tweak, std::size_t length,
                               std::string& code) const {
    if (number > max_number)
        throw Error(ErrorKind::out_of_range, "idcrypt can only encode numbers from 0 to 9223372036854775807");
    const Ff1::HalvesDomain domain = id_domain(length);
    // The number's numerals, zero-padded to `length`, split at length / 2.
    const Ff1::Halves limits = domain.limits();
    const Ff1::Halves plain{number / limits.second, number % limits.second};
    if (plain.first >= limits.first)
        throw Error(ErrorKind::invalid_parameter, "idcrypt length " + std::to_string(length) + " is too short for " +
                                                      std::to_string(number) + " in radix " + std::to_string(radix()));
    const Ff1::Halves encrypted = ff1_.encrypt(plain, domain, tweak);
    code.clear();
    append_number(encrypted.first, length / 2, code);
    append_number(encrypted.second, length - length / 2, code);
}

std::optional<std::uint64_t> AlphabetCipher::decode_id(std::string_view code, std::span<const std::uint8_t> tweak,
                                                       std::size_t length) const {
    const Ff1::HalvesDomain domain = id_domain(length);
    Ff1::Halves encrypted{0, 0};
    std::size_t read = 0;
    for (std::size_t pos = 0; pos < code.size(); ++read) {
        const std::uint32_t numeral = numeral_at(code, pos);
        if (numeral == CodePointIndex::npos || read == length) return std::nullopt;
        std::uint64_t& half = read < length / 2 ? encrypted.first : encrypted.second;
        half = half * radix() + numeral;  // below the half's domain, which fits
    }
    if (read != length) return std::nullopt;
    const Ff1::Halves plain = ff1_.decrypt(encrypted, domain, tweak);
    using u128 = unsigned __int128;
    const u128 number = u128{plain.first} * domain.limits().second + plain.second;
    if (number > max_number) return std::nullopt;
    return static_cast<std::uint64_t>(number);
}

}  // namespace idcodec::crypt
