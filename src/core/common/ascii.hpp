// ASCII character classes and case folding, written out so that no result depends on the C library's locale
// (std::tolower follows LC_CTYPE: in a Turkish locale 'I' does not lowercase to 'i').
#pragma once
#include "core/common/no_postgres.hpp"

namespace idcodec::ascii {

constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

constexpr char to_lower(char c) noexcept { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace idcodec::ascii
