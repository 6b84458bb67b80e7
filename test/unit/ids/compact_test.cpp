// Expected values: the seeds (001-003) and Python's base64/hashlib computing the same definitions independently.
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
#include "core/ids/compact.hpp"

namespace idcodec::compact {
namespace {

const Alphabet url64("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_", "test");
const Alphabet rfc4648("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", "test");
const Alphabet base62("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "test");
const Alphabet seed001("s9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut", "test");
const Alphabet seed002("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "test");

template <std::size_t N>
std::string packed(std::string_view hex, const Alphabet& alphabet) {
    std::array<std::uint8_t, N> bytes;
    EXPECT_TRUE(parse_hex(hex, bytes));
    std::string out;
    pack6(bytes, alphabet, out);
    return out;
}

template <std::size_t N>
std::string unpacked(std::string_view text, const Alphabet& alphabet) {
    std::array<std::uint8_t, N> bytes;
    if (!unpack6(text, alphabet, bytes)) return "(none)";
    std::string out;
    append_hex(bytes, out);
    return out;
}

TEST(Compact, ObjectIdOfSeed003) {
    EXPECT_EQ(packed<12>("4e7020cb7cac81af7136236b", url64), "jD0wOTOIwqZNdydH");
    EXPECT_EQ(packed<12>("4E7020CB7CAC81AF7136236B", url64), "jD0wOTOIwqZNdydH");
    EXPECT_EQ(packed<12>("4e7020cb7cac81af7136236b", rfc4648), "TnAgy3ysga9xNiNr");  // base64url
    EXPECT_EQ(unpacked<12>("jD0wOTOIwqZNdydH", url64), "4e7020cb7cac81af7136236b");
    EXPECT_EQ(unpacked<12>("jD0wOTOIwqZNdyd", url64), "(none)");
    EXPECT_EQ(unpacked<12>("jD0wOTOIwqZNdydHH", url64), "(none)");
    EXPECT_EQ(unpacked<12>("jD0wOTOIwqZNdyd*", url64), "(none)");
}

TEST(Compact, UuidPacking) {
    EXPECT_EQ(packed<16>("a0eebc999c0b4ef8bb6d6bb9bd380a11", rfc4648), "oO68mZwLTvi7bWu5vTgKEQ");
    EXPECT_EQ(packed<16>("a0eebc999c0b4ef8bb6d6bb9bd380a11", url64), "EeWYCpMbjLyXrmKVLjwa4g");
    EXPECT_EQ(packed<16>("00000000000000000000000000000000", url64), "0000000000000000000000");
    EXPECT_EQ(packed<16>("ffffffffffffffffffffffffffffffff", url64), "_____________________M");
    EXPECT_EQ(unpacked<16>("EeWYCpMbjLyXrmKVLjwa4g", url64), "a0eebc999c0b4ef8bb6d6bb9bd380a11");
    // The last character carries 2 data bits and 4 zero padding bits: other padding is not canonical.
    EXPECT_EQ(unpacked<16>("_____________________N", url64), "(none)");
    EXPECT_EQ(unpacked<16>("_____________________M", url64), "ffffffffffffffffffffffffffffffff");
}

TEST(Compact, Base62AndMixupOfSeed001) {
    std::string out;
    encode_number(123456789, seed001, out);
    EXPECT_EQ(out, "RYswX");
    out.clear();
    encode_number(123456790, seed001, out);
    EXPECT_EQ(out, "RYswP");
    out.clear();
    mixup(123456789, seed001, out);
    EXPECT_EQ(out, "wXRYs");
    out.clear();
    mixup(123456796, seed001, out);
    EXPECT_EQ(out, "swWRY");
    EXPECT_EQ(unmixup("wXRYs", seed001), 123456789u);
    EXPECT_EQ(unmixup("swWRY", seed001), 123456796u);
    EXPECT_EQ(decode_number("RYswX", seed001), 123456789u);
}

TEST(Compact, Base62Limits) {
    std::string out;
    encode_number(0, base62, out);
    EXPECT_EQ(out, "0");
    out.clear();
    encode_number(INT64_MAX, base62, out);
    EXPECT_EQ(out, "AzL8n0Y58m7");
    out.clear();
    mixup(INT64_MAX, base62, out);
    EXPECT_EQ(out, "8n0Y58m7AzL");
    EXPECT_EQ(decode_number("AzL8n0Y58m7", base62), std::uint64_t{INT64_MAX});
    EXPECT_EQ(decode_number("AzL8n0Y58m8", base62), std::nullopt);  // 2^63: beyond bigint
    EXPECT_EQ(decode_number("zzzzzzzzzzzzzzzzzzzzzz", base62, UINT64_MAX), std::nullopt);
    EXPECT_EQ(decode_number("", base62), std::nullopt);
    EXPECT_EQ(decode_number("00z", base62), 61u);  // fixed-width codes
    EXPECT_EQ(unmixup("", base62), std::nullopt);
    EXPECT_EQ(unmixup("zzzzzzzzzzzz", base62), std::nullopt);  // 62^12 - 1: beyond bigint whatever the rotation
}

TEST(Compact, RandomRoundTrips) {
    std::mt19937_64 random(2024);
    const Alphabet binary("01", "test");
    const Alphabet unicode("日本語のアルファベット", "test");
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t n = random() >> (random() % 64) & INT64_MAX;
        for (const Alphabet* alphabet : {&base62, &seed001, &binary, &unicode}) {
            std::string code;
            encode_number(n, *alphabet, code);
            ASSERT_EQ(decode_number(code, *alphabet), n);
            code.clear();
            mixup(n, *alphabet, code);
            ASSERT_EQ(unmixup(code, *alphabet), n);
        }
        std::array<std::uint8_t, 16> bytes;
        for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
        std::string text;
        pack6(bytes, url64, text);
        std::array<std::uint8_t, 16> back;
        ASSERT_TRUE(unpack6(text, url64, back));
        ASSERT_EQ(back, bytes);
    }
}

TEST(Compact, ShortcodeCandidatesOfSeed002) {
    using Codes = std::array<std::string, 4>;
    const std::string url = "https://example.com/some/long/path?with=query";
    EXPECT_EQ(shortcode_candidates(url, 8, 0, seed002), (Codes{"7Y87rbKg", "exTp22rm", "HkxPkeDg", "uL7fpX0f"}));
    EXPECT_EQ(shortcode_candidates(url, 6, 0, seed002), (Codes{"74i9bS", "elYU2D", "HfvveO", "uxx5XI"}));
    EXPECT_EQ(shortcode_candidates(url, 1, 0, seed002), (Codes{"7", "e", "H", "u"}));
    EXPECT_EQ(shortcode_candidates(url, 8, 1, seed002), (Codes{"vq9BvPZl", "Ksfl5U0b", "Cg5YSVhi", "06zj9YCg"}));
    EXPECT_EQ(shortcode_candidates("日本語のURL", 3, 2, seed002), (Codes{"p4D", "Vs7", "mQK", "NUA"}));
    EXPECT_THROW(shortcode_candidates(url, 0, 0, seed002), Error);
    EXPECT_THROW(shortcode_candidates(url, 9, 0, seed002), Error);
    EXPECT_THROW(shortcode_candidates(url, 8, -1, seed002), Error);
}

TEST(Compact, AlphabetRules) {
    EXPECT_THROW(Alphabet("a", "base62"), Error);
    try {
        Alphabet("abca", "base62");
        FAIL();
    } catch (const Error& error) {
        EXPECT_STREQ(error.what(), "base62 alphabet must not repeat a character ('a' appears twice)");
    }
    EXPECT_THROW(base62.require_size(64), Error);
    EXPECT_NO_THROW(url64.require_size(64));
    // Never empty, whatever minimum the caller asks for: digits are taken modulo the size.
    try {
        Alphabet("", "alphabet_shuffle", 0);
        FAIL();
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
        EXPECT_STREQ(error.what(), "alphabet_shuffle alphabet must contain at least 1 character (got 0)");
    }
    EXPECT_THROW(Divisor(0), std::invalid_argument);
}

}  // namespace
}  // namespace idcodec::compact
