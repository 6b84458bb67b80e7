#include "core/common/big_endian.hpp"
#include "core/ids/crockford.hpp"

namespace idcodec::crockford {

namespace {

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

// The 26 digits of the 128 bits hi:lo (130 bits, the top two zero): digit k holds bits 129 - 5k ... 125 - 5k. Digits
// 0-12 come from hi alone, 14-25 from lo alone, 13 from both; each is a shift of a constant, so all are independent.
void encode(std::span<const std::uint8_t, 16> bytes, Case letter_case, std::span<char, text_length> out) noexcept {
    const std::uint64_t hi = load_be64(bytes.data()), lo = load_be64(bytes.data() + 8);
    const char* digits = letter_case == Case::lower ? lower_digits : upper_digits;
    out[0] = digits[hi >> 61];
    for (std::size_t k = 1; k <= 12; ++k) out[k] = digits[(hi >> (61 - 5 * k)) & 31];
    out[13] = digits[(hi & 1) << 4 | lo >> 60];
    for (std::size_t k = 14; k < text_length; ++k) out[k] = digits[(lo >> (5 * (25 - k))) & 31];
}

// The inverse, in two independent chains: digits 0-12 give hi's top 63 bits, digit 13 its last bit and lo's top 4.
bool decode(std::string_view text, Reading reading, std::span<std::uint8_t, 16> bytes) noexcept {
    if (text.size() != text_length) return false;
    const DigitTable& table = reading == Reading::strict ? strict_table : lenient_table;
    const auto digit = [&](std::size_t k) { return static_cast<int>(table[static_cast<unsigned char>(text[k])]); };
    int invalid = 0;  // checked once at the end, keeping the loops free of branches
    std::uint64_t hi = 0, lo = 0;
    for (std::size_t k = 0; k <= 12; ++k) {
        invalid |= digit(k);
        hi = hi << 5 | static_cast<std::uint64_t>(digit(k) & 31);
    }
    const int middle = digit(13);
    invalid |= middle;
    hi = hi << 1 | static_cast<std::uint64_t>((middle & 31) >> 4);
    lo = static_cast<std::uint64_t>(middle & 15);
    for (std::size_t k = 14; k < text_length; ++k) {
        invalid |= digit(k);
        lo = lo << 5 | static_cast<std::uint64_t>(digit(k) & 31);
    }
    // 26 digits hold 130 bits: the first may only carry 3
    if (invalid < 0 || digit(0) > 7) return false;
    store_be64(bytes.data(), hi);
    store_be64(bytes.data() + 8, lo);
    return true;
}

}  // namespace idcodec::crockford
