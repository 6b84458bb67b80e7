#include <algorithm>
#include <array>
#include <cstring>

#include "core/common/error.hpp"
#include "core/ids/compact.hpp"
#include "core/ids/digits.hpp"
#include "core/ids/md5.hpp"

namespace idcodec::compact {

namespace {

// Digits of `number`, most significant first, in `digits` (64 is enough for base 2); returns their count.
std::size_t digits_of(std::uint64_t number, const Alphabet& alphabet, std::uint32_t (&digits)[64]) {
    std::size_t count = 0;
    do {
        std::uint64_t digit;
        number = alphabet.divisor().divide(number, digit);
        digits[count++] = static_cast<std::uint32_t>(digit);
    } while (number > 0);
    std::reverse(digits, digits + count);
    return count;
}

// The 6-bit groups of `bytes`, most significant first, a last partial group padded with zero bits. Three bytes
// make four groups; the rest (one or two bytes) is taken bit by bit. Inlined, so that what `emit` writes stays in
// registers: through a call, every character written could alias the closure's state.
template <class Emit>
[[gnu::always_inline]] inline void for_each_sextet(std::span<const std::uint8_t> bytes, Emit&& emit) {
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t group = std::uint32_t{bytes[i]} << 16 | std::uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
        emit(group >> 18);
        emit((group >> 12) & 63);
        emit((group >> 6) & 63);
        emit(group & 63);
    }
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const std::uint8_t byte : bytes.subspan(i)) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            emit((buffer >> bits) & 63);
        }
    }
    if (bits > 0) emit((buffer << (6 - bits)) & 63);
}

}  // namespace

void encode_number(std::uint64_t number, const Alphabet& alphabet, std::string& out) {
    std::uint32_t digits[64];
    alphabet.append_digits(out, digits, digits_of(number, alphabet, digits));
}

std::optional<std::uint64_t> decode_number(std::string_view code, const Alphabet& alphabet, std::uint64_t max) {
    if (code.empty()) return std::nullopt;
    std::uint64_t value = 0;
    bool fits = true;
    const bool known = alphabet.for_each_digit(
        code, [&](std::uint32_t digit) { fits = fits && append_digit(value, alphabet.size(), digit, max); });
    if (!known || !fits) return std::nullopt;
    return value;
}

void mixup(std::uint64_t number, const Alphabet& alphabet, std::string& out) {
    std::uint32_t digits[64];
    const std::size_t count = digits_of(number, alphabet, digits);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < count; ++i) sum += alphabet.characters()[digits[i]];
    alphabet.append_digits(out, digits, count, sum % count);
}

std::optional<std::uint64_t> unmixup(std::string_view code, const Alphabet& alphabet, std::uint64_t max) {
    std::uint32_t digits[64];
    std::size_t count = 0;
    std::uint64_t sum = 0;
    const bool known = alphabet.for_each_digit(code, [&](std::uint32_t digit) {
        if (count < std::size(digits)) digits[count] = digit;
        ++count;
        sum += alphabet.characters()[digit];
    });
    if (!known || count == 0 || count > std::size(digits)) return std::nullopt;
    const std::size_t shift = sum % count;
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < count; ++i)
        if (!append_digit(value, alphabet.size(), digits[(i + count - shift) % count], max)) return std::nullopt;
    return value;
}

void pack6(std::span<const std::uint8_t> bytes, const Alphabet& alphabet, std::string& out) {
    if (!alphabet.ascii().empty()) {
        const std::size_t at = out.size();
        out.resize(at + packed_length(bytes.size()));
        pack6_ascii(bytes, alphabet.ascii(), std::span<char>(out).subspan(at));
        return;
    }
    for_each_sextet(bytes, [&](std::uint32_t digit) { alphabet.append(out, digit); });
}

void pack6_ascii(std::span<const std::uint8_t> bytes, std::string_view ascii_alphabet, std::span<char> out) noexcept {
    const char* const characters = ascii_alphabet.data();
    char* at = out.data();
    for_each_sextet(bytes, [characters, &at](std::uint32_t digit) { *at++ = characters[digit]; });
}

bool unpack6(std::string_view text, const Alphabet& alphabet, std::span<std::uint8_t> bytes) noexcept {
    std::uint32_t digits[64];
    const std::size_t characters = packed_length(bytes.size());
    if (characters > std::size(digits)) return false;
    std::size_t count = 0;
    if (!alphabet.ascii().empty()) {
        // One byte per character: every digit is looked up, and an unknown one noticed once at the end.
        if (text.size() != characters) return false;
        std::uint32_t unknown = 0;
        for (const char c : text) unknown |= digits[count++] = alphabet.ascii_digit(static_cast<unsigned char>(c));
        if ((unknown >> 6) != 0) return false;  // digits of a 64-character alphabet are below 64; not_a_digit is not
    } else if (!alphabet.for_each_digit(text,
                                        [&](std::uint32_t digit) {
                                            if (count < characters) digits[count] = digit;
                                            ++count;
                                        }) ||
               count != characters) {
        return false;
    }
    // Four digits make three bytes; the rest (at most three digits) is packed bit by bit, and its unused low bits
    // must be zero.
    std::size_t i = 0, written = 0;
    for (; i + 4 <= characters; i += 4, written += 3) {
        const std::uint32_t group = digits[i] << 18 | digits[i + 1] << 12 | digits[i + 2] << 6 | digits[i + 3];
        bytes[written] = static_cast<std::uint8_t>(group >> 16);
        bytes[written + 1] = static_cast<std::uint8_t>(group >> 8);
        bytes[written + 2] = static_cast<std::uint8_t>(group);
    }
    std::uint32_t buffer = 0;
    int bits = 0;
    for (; i < characters; ++i) {
        buffer = (buffer << 6) | digits[i];
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[written++] = static_cast<std::uint8_t>(buffer >> bits);
        }
    }
    return (buffer & ((1u << bits) - 1)) == 0;
}

void append_hex(std::span<const std::uint8_t> bytes, std::string& out) {
    const std::size_t at = out.size();
    out.resize(at + 2 * bytes.size());
    write_hex(bytes, std::span<char>(out).subspan(at));
}

void write_hex(std::span<const std::uint8_t> bytes, std::span<char> out) noexcept {
    // Both digits of a byte at once.
    static constexpr auto pairs = [] {
        constexpr char digits[] = "0123456789abcdef";
        std::array<std::array<char, 2>, 256> table{};
        for (std::size_t b = 0; b < table.size(); ++b) table[b] = {digits[b >> 4], digits[b & 15]};
        return table;
    }();
    for (std::size_t i = 0; i < bytes.size(); ++i) std::memcpy(&out[2 * i], pairs[bytes[i]].data(), 2);
}

std::array<std::string, 4> shortcode_candidates(std::string_view url, int length, std::int64_t attempt,
                                                const Alphabet& alphabet) {
    if (length < 1 || length > max_shortcode_length)
        throw Error(ErrorKind::invalid_parameter,
                    "shortcode length must be between 1 and 8 (got " + std::to_string(length) + ")");
    if (attempt < 0)
        throw Error(ErrorKind::invalid_parameter,
                    "shortcode attempt must not be negative (got " + std::to_string(attempt) + ")");
    Md5 md5;
    md5.update(url);
    if (attempt > 0) md5.update(std::string_view("\0", 1)).update(std::to_string(attempt));
    const Md5::Digest digest = md5.finish();

    std::array<std::string, 4> codes;
    const int shift = 32 / length;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        std::uint64_t word = std::uint64_t{digest[4 * i]} << 24 | std::uint64_t{digest[4 * i + 1]} << 16 |
                             std::uint64_t{digest[4 * i + 2]} << 8 | digest[4 * i + 3];
        for (int j = 0; j < length; ++j, word >>= shift) alphabet.append(codes[i], alphabet.divisor().remainder(word));
    }
    return codes;
}

}  // namespace idcodec::compact
