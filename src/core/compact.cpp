#include <algorithm>

#include "core/compact.hpp"
#include "core/error.hpp"
#include "core/md5.hpp"

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

// Hex digit values by byte, -1 for anything else: a table, because branching on random digits mispredicts.
constexpr std::array<std::int8_t, 256> hex_values = [] {
    std::array<std::int8_t, 256> values{};
    values.fill(-1);
    for (int i = 0; i < 10; ++i) values['0' + i] = static_cast<std::int8_t>(i);
    for (int i = 0; i < 6; ++i) values['a' + i] = values['A' + i] = static_cast<std::int8_t>(10 + i);
    return values;
}();

// Appends a value's digits, checking for overflow beyond `max`.
bool accumulate(std::uint64_t& value, std::uint32_t digit, std::uint64_t base, std::uint64_t max) {
    if (value > (max - digit) / base) return false;
    value = value * base + digit;
    return true;
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
        code, [&](std::uint32_t digit) { fits = fits && accumulate(value, digit, alphabet.size(), max); });
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
        if (!accumulate(value, digits[(i + count - shift) % count], alphabet.size(), max)) return std::nullopt;
    return value;
}

void pack6(std::span<const std::uint8_t> bytes, const Alphabet& alphabet, std::string& out) {
    std::uint32_t digits[64];
    std::size_t count = 0;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const std::uint8_t byte : bytes) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            digits[count++] = (buffer >> bits) & 63;
            if (count == std::size(digits)) {
                alphabet.append_digits(out, digits, count);
                count = 0;
            }
        }
    }
    if (bits > 0) digits[count++] = (buffer << (6 - bits)) & 63;
    alphabet.append_digits(out, digits, count);
}

bool unpack6(std::string_view text, const Alphabet& alphabet, std::span<std::uint8_t> bytes) {
    const std::size_t characters = (bytes.size() * 8 + 5) / 6;
    std::size_t count = 0;
    std::size_t written = 0;
    std::uint32_t buffer = 0;
    int bits = 0;
    const bool known = alphabet.for_each_digit(text, [&](std::uint32_t digit) {
        if (++count > characters) return;
        buffer = (buffer << 6) | digit;
        bits += 6;
        if (bits >= 8 && written < bytes.size()) {
            bits -= 8;
            bytes[written++] = static_cast<std::uint8_t>(buffer >> bits);
        }
    });
    return known && count == characters && written == bytes.size() && (buffer & ((1u << bits) - 1)) == 0;
}

bool parse_hex(std::string_view hex, std::span<std::uint8_t> bytes) {
    if (hex.size() != 2 * bytes.size()) return false;
    int invalid = 0;  // checked once at the end, keeping the loop free of branches
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const int high = hex_values[static_cast<unsigned char>(hex[2 * i])];
        const int low = hex_values[static_cast<unsigned char>(hex[2 * i + 1])];
        invalid |= high | low;
        bytes[i] = static_cast<std::uint8_t>(high << 4 | low);
    }
    return invalid >= 0;
}

void append_hex(std::span<const std::uint8_t> bytes, std::string& out) {
    static constexpr char digits[] = "0123456789abcdef";
    for (const std::uint8_t byte : bytes) {
        out.push_back(digits[byte >> 4]);
        out.push_back(digits[byte & 15]);
    }
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
