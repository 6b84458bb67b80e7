#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/crypt/alphabet_cipher.hpp"

namespace idcodec::crypt {

AlphabetCipher::AlphabetCipher(std::span<const std::uint8_t> key, std::string_view alphabet) : ff1_(key) {
    // More bytes than 65536 characters can take is refused before it is decoded.
    if (alphabet.size() > 4 * std::size_t{Ff1::max_radix})
        throw Error(ErrorKind::invalid_parameter, "FF1 alphabet must have 2 to 65536 characters");
    const std::optional<std::u32string> characters = utf8::decode(alphabet);
    if (!characters) throw Error(ErrorKind::invalid_parameter, "FF1 alphabet is not valid UTF-8");
    alphabet_ = *characters;
    if (alphabet_.size() < Ff1::min_radix || alphabet_.size() > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "FF1 alphabet must have 2 to 65536 characters (got " + std::to_string(alphabet_.size()) + ")");
    index_ = CodePointIndex(alphabet_);
    for (std::uint32_t k = 0; k < alphabet_.size(); ++k)
        if (index_.find(alphabet_[k]) != k)
            throw Error(ErrorKind::invalid_parameter, "FF1 alphabet must not repeat a character");
}

std::optional<std::vector<std::uint32_t>> AlphabetCipher::numerals_of(std::string_view text, std::size_t limit) const {
    std::vector<std::uint32_t> numerals;
    for (std::size_t pos = 0; pos < text.size();) {
        if (numerals.size() == limit) return std::nullopt;
        const std::uint32_t numeral = index_.find(utf8::next(text, pos));
        if (numeral == CodePointIndex::npos) return std::nullopt;
        numerals.push_back(numeral);
    }
    return numerals;
}

std::string AlphabetCipher::text_of(std::span<const std::uint32_t> numerals) const {
    std::string text;
    for (const std::uint32_t numeral : numerals) utf8::append(text, alphabet_[numeral]);
    return text;
}

std::optional<std::string> AlphabetCipher::run(std::string_view text, std::span<const std::uint8_t> tweak,
                                               bool encrypting) const {
    const std::size_t characters = utf8::length(text);
    Ff1::check_domain(radix(), characters);
    const std::optional<std::vector<std::uint32_t>> numerals = numerals_of(text, characters);
    if (!numerals) return std::nullopt;
    std::vector<std::uint32_t> result(numerals->size());
    if (encrypting) {
        ff1_.encrypt(*numerals, radix(), tweak, result);
    } else {
        ff1_.decrypt(*numerals, radix(), tweak, result);
    }
    return text_of(result);
}

std::optional<std::string> AlphabetCipher::encrypt(std::string_view text, std::span<const std::uint8_t> tweak) const {
    return run(text, tweak, true);
}

std::optional<std::string> AlphabetCipher::decrypt(std::string_view text, std::span<const std::uint8_t> tweak) const {
    return run(text, tweak, false);
}

std::size_t AlphabetCipher::default_id_length(std::uint32_t radix) {
    if (radix < Ff1::min_radix || radix > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "idcrypt radix must be between 2 and 65536 (got " + std::to_string(radix) + ")");
    using u128 = unsigned __int128;
    const u128 threshold = (u128{1} << 63) * 1'000'000;
    std::size_t length = 0;
    for (u128 domain = 1; domain <= threshold; domain *= radix) ++length;
    return length;
}

std::string AlphabetCipher::encode_id(std::uint64_t number, std::span<const std::uint8_t> tweak,
                                      std::size_t length) const {
    if (number > max_number)
        throw Error(ErrorKind::out_of_range, "idcrypt can only encode numbers from 0 to 9223372036854775807");
    Ff1::check_domain(radix(), length);
    std::vector<std::uint32_t> numerals(length);
    std::uint64_t rest = number;
    for (std::size_t k = length; k-- > 0 && rest > 0; rest /= radix())
        numerals[k] = static_cast<std::uint32_t>(rest % radix());
    if (rest > 0)
        throw Error(ErrorKind::invalid_parameter, "idcrypt length " + std::to_string(length) + " is too short for " +
                                                      std::to_string(number) + " in radix " + std::to_string(radix()));
    std::vector<std::uint32_t> encrypted(length);
    ff1_.encrypt(numerals, radix(), tweak, encrypted);
    return text_of(encrypted);
}

std::optional<std::uint64_t> AlphabetCipher::decode_id(std::string_view code, std::span<const std::uint8_t> tweak,
                                                       std::size_t length) const {
    Ff1::check_domain(radix(), length);
    const std::optional<std::vector<std::uint32_t>> numerals = numerals_of(code, length);
    if (!numerals || numerals->size() != length) return std::nullopt;
    std::vector<std::uint32_t> decrypted(length);
    ff1_.decrypt(*numerals, radix(), tweak, decrypted);
    std::uint64_t number = 0;
    for (const std::uint32_t numeral : decrypted) {
        if (number > (max_number - numeral) / radix()) return std::nullopt;
        number = number * radix() + numeral;
    }
    return number;
}

}  // namespace idcodec::crypt
