#include <vector>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/crypt/idcrypt.hpp"

namespace idcodec::crypt {

IdCipher::IdCipher(std::span<const std::uint8_t> key, std::string_view alphabet) : ff1_(key) {
    // More bytes than 65536 characters can take is refused before it is decoded.
    if (alphabet.size() > 4 * std::size_t{Ff1::max_radix})
        throw Error(ErrorKind::invalid_parameter, "idcrypt alphabet must have 2 to 65536 characters");
    const std::optional<std::u32string> characters = utf8::decode(alphabet);
    if (!characters) throw Error(ErrorKind::invalid_parameter, "idcrypt alphabet is not valid UTF-8");
    alphabet_ = *characters;
    if (alphabet_.size() < Ff1::min_radix || alphabet_.size() > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "idcrypt alphabet must have 2 to 65536 characters (got " + std::to_string(alphabet_.size()) + ")");
    index_ = CodePointIndex(alphabet_);
    for (std::uint32_t k = 0; k < alphabet_.size(); ++k)
        if (index_.find(alphabet_[k]) != k)
            throw Error(ErrorKind::invalid_parameter, "idcrypt alphabet must not repeat a character");
}

std::size_t IdCipher::default_length(std::uint32_t radix) {
    if (radix < Ff1::min_radix || radix > Ff1::max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "idcrypt radix must be between 2 and 65536 (got " + std::to_string(radix) + ")");
    using u128 = unsigned __int128;
    const u128 threshold = (u128{1} << 63) * 1'000'000;
    std::size_t length = 0;
    for (u128 domain = 1; domain <= threshold; domain *= radix) ++length;
    return length;
}

std::string IdCipher::encode(std::uint64_t number, std::span<const std::uint8_t> tweak, std::size_t length) const {
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
    std::string code;
    for (const std::uint32_t numeral : encrypted) utf8::append(code, alphabet_[numeral]);
    return code;
}

std::optional<std::uint64_t> IdCipher::decode(std::string_view code, std::span<const std::uint8_t> tweak,
                                              std::size_t length) const {
    Ff1::check_domain(radix(), length);
    std::vector<std::uint32_t> numerals;
    numerals.reserve(length);
    for (std::size_t pos = 0; pos < code.size();) {
        if (numerals.size() == length) return std::nullopt;
        const std::uint32_t numeral = index_.find(utf8::next(code, pos));
        if (numeral == CodePointIndex::npos) return std::nullopt;
        numerals.push_back(numeral);
    }
    if (numerals.size() != length) return std::nullopt;
    std::vector<std::uint32_t> decrypted(length);
    ff1_.decrypt(numerals, radix(), tweak, decrypted);
    std::uint64_t number = 0;
    for (const std::uint32_t numeral : decrypted) {
        if (number > (max_number - numeral) / radix()) return std::nullopt;
        number = number * radix() + numeral;
    }
    return number;
}

}  // namespace idcodec::crypt
