// UTF-8 <-> code points. Settings and IDs are handled by code point, like the reference JavaScript libraries.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace idcodec::utf8 {

inline constexpr char32_t invalid = 0xFFFFFFFF;

char32_t next_multibyte(std::string_view text, std::size_t& pos) noexcept;

// Decodes the code point at `pos` and advances past it; returns `invalid` (and advances one byte) for a
// malformed, overlong, surrogate or out-of-range sequence.
inline char32_t next(std::string_view text, std::size_t& pos) noexcept {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80) {
        ++pos;
        return lead;
    }
    // Through a copy: were the caller's position handed to a function out of line, it would live in memory, and
    // every ASCII character would wait on its store and reload.
    std::size_t at = pos;
    const char32_t code_point = next_multibyte(text, at);
    pos = at;
    return code_point;
}

// The whole text as code points, or nothing if it is not valid UTF-8.
std::optional<std::u32string> decode(std::string_view text);

void append_multibyte(std::string& out, char32_t code_point);
// Writes a code point of 0x80 or more (at most 4 bytes) to `out`; returns the bytes written.
std::size_t write_multibyte(char* out, char32_t code_point) noexcept;

inline void append(std::string& out, char32_t code_point) {
    if (code_point < 0x80) {
        out.push_back(static_cast<char>(code_point));
    } else {
        append_multibyte(out, code_point);
    }
}

std::string encode(std::u32string_view code_points);

// The bytes `code_point` takes in UTF-8.
inline constexpr std::size_t width(char32_t code_point) noexcept {
    return code_point < 0x80 ? 1 : code_point < 0x800 ? 2 : code_point < 0x10000 ? 3 : 4;
}

// The number of characters of valid UTF-8 text (bytes that do not continue a character).
inline std::size_t length(std::string_view text) noexcept {
    std::size_t characters = 0;
    for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return characters;
}

// The longest prefix of at most `max_bytes` bytes that does not end inside a character, for quoting user text.
inline std::string_view clip(std::string_view text, std::size_t max_bytes) noexcept {
    if (text.size() <= max_bytes) return text;
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end);
}

}  // namespace idcodec::utf8
