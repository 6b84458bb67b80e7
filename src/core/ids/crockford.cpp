#include "core/ids/crockford.hpp"

namespace idcodec::crockford {

namespace {

using u128 = unsigned __int128;

constexpr char lower_digits[] = "0123456789abcdefghjkmnpqrstvwxyz";
constexpr char upper_digits[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Digit values by byte, -1 for anything else.
using DigitTable = std::array<std::int8_t, 256>;

constexpr DigitTable table_of(Reading reading) {
    DigitTable values{};
    values.fill(-1);
    for (int d = 0; d < 32; ++d) {
        values[static_cast<unsigned char>(lower_digits[d])] = static_cast<std::int8_t>(d);
        if (reading == Reading::lenient)
            values[static_cast<unsigned char>(upper_digits[d])] = static_cast<std::int8_t>(d);
    }
    if (reading == Reading::lenient) {
        for (const char one : {'i', 'I', 'l', 'L'}) values[static_cast<unsigned char>(one)] = 1;
        for (const char zero : {'o', 'O'}) values[static_cast<unsigned char>(zero)] = 0;
    }
    return values;
}

constexpr DigitTable strict_table = table_of(Reading::strict);
constexpr DigitTable lenient_table = table_of(Reading::lenient);

}  // namespace

void encode(std::span<const std::uint8_t, 16> bytes, Case letter_case, std::span<char, text_length> out) noexcept {
    u128 value = 0;
    for (const std::uint8_t byte : bytes) value = value << 8 | byte;
    const char* digits = letter_case == Case::lower ? lower_digits : upper_digits;
    for (std::size_t k = text_length; k-- > 0; value >>= 5) out[k] = digits[static_cast<unsigned>(value) & 31];
}

bool decode(std::string_view text, Reading reading, std::span<std::uint8_t, 16> bytes) noexcept {
    if (text.size() != text_length) return false;
    const DigitTable& table = reading == Reading::strict ? strict_table : lenient_table;
    u128 value = 0;
    int invalid = 0;  // checked once at the end, keeping the loop free of branches
    for (const char c : text) {
        const int digit = table[static_cast<unsigned char>(c)];
        invalid |= digit;
        value = value << 5 | static_cast<unsigned>(digit & 31);
    }
    // 26 digits hold 130 bits: the first may only carry 3
    if (invalid < 0 || table[static_cast<unsigned char>(text[0])] > 7) return false;
    for (std::size_t k = bytes.size(); k-- > 0; value >>= 8) bytes[k] = static_cast<std::uint8_t>(value);
    return true;
}

}  // namespace idcodec::crockford
