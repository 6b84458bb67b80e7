// 128 bits as 26 characters of Crockford's base32 (digits and letters without i, l, o, u), most significant first:
// the first character carries the top 3 bits (so it is 0-7), each other one 5. Both TypeID and ULID write a UUID's
// bytes this way, in lowercase and uppercase, and since the digits are in ASCII order in either case, the text sorts
// as the bytes do.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace idcodec::crockford {

inline constexpr std::size_t text_length = 26;

enum class Case { lower, upper };

void encode(std::span<const std::uint8_t, 16> bytes, Case letter_case, std::span<char, text_length> out) noexcept;

// How text is read. strict: exactly the lowercase digits (TypeID). lenient: either case, and i and l read as 1, o as 0
// (ULID, as Crockford's base32 decodes).
enum class Reading { strict, lenient };

// False unless `text` is 26 digits of the reading whose value fits in 128 bits (a first digit of 0-7).
bool decode(std::string_view text, Reading reading, std::span<std::uint8_t, 16> bytes) noexcept;

}  // namespace idcodec::crockford
