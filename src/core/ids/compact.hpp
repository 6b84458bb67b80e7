// Compact identifiers: base-N numbers and their rotation ("mixup"), 6-bit packing of binary
// identifiers such as MongoDB ObjectIds and UUIDs, hexadecimal text, and short-URL codes cut from an MD5.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/ids/alphabet.hpp"

namespace idcodec::compact {

// Digits most significant first; 0 is the alphabet's first character.
void encode_number(std::uint64_t number, const Alphabet& alphabet, std::string& out);
// Nothing for an empty code, a character outside the alphabet, or a value above `max`. Leading zero digits are
// accepted (fixed-width codes).
std::optional<std::uint64_t> decode_number(std::string_view code, const Alphabet& alphabet,
                                           std::uint64_t max = INT64_MAX);

// base62_mixup: the base-N digits rotated left by (sum of their code points) mod (number of digits); the sum does not
// change under rotation, so unmixup rotates back by the same amount.
void mixup(std::uint64_t number, const Alphabet& alphabet, std::string& out);
std::optional<std::uint64_t> unmixup(std::string_view code, const Alphabet& alphabet, std::uint64_t max = INT64_MAX);

// Bytes as characters of a 64-character alphabet, 6 bits each, most significant first; a last partial group is
// padded with zero bits (RFC 4648 base64 without '=' when given its alphabet).
void pack6(std::span<const std::uint8_t> bytes, const Alphabet& alphabet, std::string& out);
// How many characters pack6 gives for `bytes` bytes.
constexpr std::size_t packed_length(std::size_t bytes) { return (bytes * 8 + 5) / 6; }
// pack6 for an alphabet of ASCII characters (Alphabet::ascii()), into exactly packed_length(bytes.size()) bytes.
void pack6_ascii(std::span<const std::uint8_t> bytes, std::string_view ascii_alphabet, std::span<char> out) noexcept;
// The inverse: false unless `text` has exactly the right number of characters, all in the alphabet, with zero
// padding bits (so each byte string has one text).
bool unpack6(std::string_view text, const Alphabet& alphabet, std::span<std::uint8_t> bytes) noexcept;

void append_hex(std::span<const std::uint8_t> bytes, std::string& out);
// Lowercase hex digits of `bytes` into exactly 2 * bytes.size() characters.
void write_hex(std::span<const std::uint8_t> bytes, std::span<char> out) noexcept;

inline constexpr int max_shortcode_length = 8;

// Short-URL codes from an MD5, the classic scheme with its digit extraction made correct: the MD5 of the URL's UTF-8
// bytes (attempt 0) or of the URL, a NUL byte and the attempt number in decimal (attempt k > 0), cut into four 32-bit
// words; each gives a code of `length` characters, digit j = (word >> (j * (32 / length))) mod alphabet size. Throws
// Error(invalid_parameter) for a length outside 1..8 or a negative attempt.
std::array<std::string, 4> shortcode_candidates(std::string_view url, int length, std::int64_t attempt,
                                                const Alphabet& alphabet);

}  // namespace idcodec::compact
