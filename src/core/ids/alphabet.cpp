#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/alphabet.hpp"

namespace idcodec {

Alphabet::Alphabet(std::string_view utf8_text, std::string_view name, std::size_t min_size) : name_(name) {
    auto decoded = utf8::decode(utf8_text);
    if (!decoded) throw Error(ErrorKind::invalid_parameter, name_ + " alphabet is not valid UTF-8");
    characters_ = std::move(*decoded);
    min_size = std::max<std::size_t>(min_size, 1);  // digits are taken modulo the size
    if (characters_.size() < min_size)
        throw Error(ErrorKind::invalid_parameter, name_ + " alphabet must contain at least " +
                                                      std::to_string(min_size) +
                                                      (min_size == 1 ? " character" : " characters") + " (got " +
                                                      std::to_string(characters_.size()) + ")");
    index_ = CodePointIndex(characters_);
    for (std::uint32_t i = 0; i < characters_.size(); ++i) {
        if (index_.find(characters_[i]) != i)
            throw Error(ErrorKind::invalid_parameter, name_ + " alphabet must not repeat a character ('" +
                                                          utf8::encode(characters_.substr(i, 1)) + "' appears twice)");
    }
    if (characters_.size() > UINT32_MAX) throw Error(ErrorKind::program_limit, name_ + " alphabet is too long");
    divisor_ = Divisor(static_cast<std::uint32_t>(characters_.size()));
    ascii_digits_.fill(not_a_digit);
    if (std::all_of(characters_.begin(), characters_.end(), [](char32_t cp) { return cp < 0x80; })) {
        ascii_.assign(characters_.begin(), characters_.end());
        for (std::size_t i = 0; i < ascii_.size(); ++i)
            ascii_digits_[static_cast<unsigned char>(ascii_[i])] = static_cast<std::uint8_t>(i);
    }
}

void Alphabet::append_digits(std::string& out, const std::uint32_t* digits, std::size_t count,
                             std::size_t rotation) const {
    // digits[rotation..count) then digits[0..rotation): no division per character
    if (ascii_.empty()) {
        for (std::size_t i = rotation; i < count; ++i) append(out, digits[i]);
        for (std::size_t i = 0; i < rotation; ++i) append(out, digits[i]);
        return;
    }
    char bytes[64];
    std::size_t n = 0;
    for (std::size_t i = rotation; i < count; ++i) bytes[n++] = ascii_[digits[i]];
    for (std::size_t i = 0; i < rotation; ++i) bytes[n++] = ascii_[digits[i]];
    out.append(bytes, n);
}

void Alphabet::require_size(std::size_t size) const {
    if (characters_.size() != size)
        throw Error(ErrorKind::invalid_parameter, name_ + " alphabet must contain exactly " + std::to_string(size) +
                                                      " characters (got " + std::to_string(characters_.size()) + ")");
}

}  // namespace idcodec
