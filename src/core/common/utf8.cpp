#include "core/common/utf8.hpp"

namespace idcodec::utf8 {

char32_t next_multibyte(std::string_view text, std::size_t& pos) noexcept {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(pos);
    std::size_t length;
    char32_t cp;
    char32_t minimum;
    if ((lead & 0xE0) == 0xC0) {
        length = 2, cp = lead & 0x1F, minimum = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, cp = lead & 0x0F, minimum = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, cp = lead & 0x07, minimum = 0x10000;
    } else {
        ++pos;
        return invalid;
    }
    if (text.size() - pos < length) {
        ++pos;
        return invalid;
    }
    for (std::size_t i = 1; i < length; ++i) {
        const unsigned char continuation = byte(pos + i);
        if ((continuation & 0xC0) != 0x80) {
            ++pos;
            return invalid;
        }
        cp = (cp << 6) | (continuation & 0x3F);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++pos;
        return invalid;
    }
    pos += length;
    return cp;
}

std::optional<std::u32string> decode(std::string_view text) {
    std::u32string result;
    result.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const char32_t cp = next(text, pos);
        if (cp == invalid) return std::nullopt;
        result.push_back(cp);
    }
    return result;
}

void append_multibyte(std::string& out, char32_t code_point) {
    char bytes[4];
    out.append(bytes, write_multibyte(bytes, code_point));
}

std::size_t write_multibyte(char* out, char32_t cp) noexcept {
    if (cp < 0x800) {
        out[0] = static_cast<char>(0xC0 | (cp >> 6));
        out[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = static_cast<char>(0xE0 | (cp >> 12));
        out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = static_cast<char>(0xF0 | (cp >> 18));
    out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

std::string encode(std::u32string_view code_points) {
    std::string out;
    out.reserve(code_points.size());
    for (const char32_t cp : code_points) append(out, cp);
    return out;
}

}  // namespace idcodec::utf8
