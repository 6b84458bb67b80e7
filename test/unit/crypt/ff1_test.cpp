// FF1 against NIST SP 800-38G's samples and @noble/ciphers, both ways, and its argument rules.
#include <cstdint>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/crypt/ff1.hpp"

#include "unit/common/jsonl.hpp"
#include "unit/crypt/crypt_vectors.hpp"

using idcodec::Error;
using idcodec::ErrorKind;
using idcodec::crypt::Ff1;
using idcodec::test::from_hex;

namespace {

std::vector<std::uint32_t> numerals(const idcodec::test::Json& array) {
    std::vector<std::uint32_t> out;
    for (const auto& item : array.items) out.push_back(static_cast<std::uint32_t>(std::stoul(item.text)));
    return out;
}

// Every record encrypts pt to ct and decrypts ct to pt; returns how many matched.
int check_file(const std::string& name) {
    int matched = 0;
    for (const auto& record : idcodec::test::read_jsonl(idcodec::test::vectors_dir() + "/ff1/" + name)) {
        const Ff1 ff1(from_hex(record["key"].text));
        const auto radix = static_cast<std::uint32_t>(std::stoul(record["radix"].text));
        const std::vector<std::uint8_t> tweak = from_hex(record["tweak"].text);
        const std::vector<std::uint32_t> pt = numerals(record["pt"]), ct = numerals(record["ct"]);
        std::vector<std::uint32_t> out(pt.size());
        ff1.encrypt(pt, radix, tweak, out);
        EXPECT_EQ(out, ct) << name << ": key " << record["key"].text << " radix " << radix;
        std::vector<std::uint32_t> back(ct.size());
        ff1.decrypt(ct, radix, tweak, back);
        EXPECT_EQ(back, pt) << name << ": key " << record["key"].text << " radix " << radix;
        matched += out == ct && back == pt;
    }
    return matched;
}

ErrorKind error_of(auto&& call) {
    try {
        call();
    } catch (const Error& error) {
        return error.kind();
    }
    ADD_FAILURE() << "no error";
    return ErrorKind::interrupted;
}

}  // namespace

TEST(Ff1Vectors, NistSamples) { EXPECT_EQ(check_file("nist-samples.jsonl"), 9); }

TEST(Ff1Vectors, NobleCiphers) { EXPECT_EQ(check_file("ff1-noble.jsonl"), 300); }

// The halves' form is the numeral form with each half read as a number (as encrypted IDs use it).
TEST(Ff1, HalvesAgreeWithNumerals) {
    const Ff1 ff1(std::vector<std::uint8_t>(24, 9));
    std::uint64_t state = 12345;
    const auto next = [&] { return (state = state * 6364136223846793005u + 1442695040888963407u) >> 33; };
    for (const std::uint32_t radix : {2u, 10u, 36u, 62u, 1000u, 65536u}) {
        for (std::size_t length = 2; length <= 40; ++length) {
            std::optional<Ff1::HalvesDomain> domain;
            try {
                domain = Ff1::halves_domain(radix, length);
            } catch (const Error&) {
                continue;  // below NIST's minimum domain
            }
            if (!domain) break;
            std::vector<std::uint32_t> plain(length), cipher(length);
            for (auto& numeral : plain) numeral = static_cast<std::uint32_t>(next() % radix);
            const std::vector<std::uint8_t> tweak(next() % 20, static_cast<std::uint8_t>(length));
            ff1.encrypt(plain, radix, tweak, cipher);
            const auto value = [&](const std::vector<std::uint32_t>& numerals, std::size_t from, std::size_t to) {
                std::uint64_t x = 0;
                for (std::size_t k = from; k < to; ++k) x = x * radix + numerals[k];
                return x;
            };
            const Ff1::Halves in{value(plain, 0, length / 2), value(plain, length / 2, length)};
            const Ff1::Halves out{value(cipher, 0, length / 2), value(cipher, length / 2, length)};
            EXPECT_EQ(ff1.encrypt(in, *domain, tweak), out) << "radix " << radix << " length " << length;
            EXPECT_EQ(ff1.decrypt(out, *domain, tweak), in) << "radix " << radix << " length " << length;
        }
    }
    EXPECT_FALSE(Ff1::halves_domain(62, 21).has_value());
    EXPECT_EQ(error_of([&] { (void)Ff1::halves_domain(62, 3); }), ErrorKind::invalid_parameter);
    const Ff1::HalvesDomain six_digits = *Ff1::halves_domain(10, 6);
    EXPECT_EQ(six_digits.limits(), (Ff1::Halves{1000, 1000}));
    EXPECT_EQ(error_of([&] { ff1.encrypt(Ff1::Halves{1000, 0}, six_digits, {}); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(error_of([&] { ff1.encrypt(Ff1::Halves{0, 1000}, six_digits, {}); }), ErrorKind::invalid_parameter);
}

TEST(Ff1, RefusesWhatTheStandardRefuses) {
    const std::vector<std::uint8_t> key(16, 7);
    const Ff1 ff1(key);
    std::vector<std::uint32_t> out(6);
    const std::vector<std::uint32_t> six(6, 1);
    EXPECT_EQ(error_of([&] { Ff1(std::vector<std::uint8_t>(15)); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(error_of([&] { Ff1(std::vector<std::uint8_t>(33)); }), ErrorKind::invalid_parameter);
    // 10^5 is below NIST's minimum domain of 10^6; 10^6 is not
    std::vector<std::uint32_t> five(5, 1), five_out(5);
    EXPECT_EQ(error_of([&] { ff1.encrypt(five, 10, {}, five_out); }), ErrorKind::invalid_parameter);
    ff1.encrypt(six, 10, {}, out);
    EXPECT_EQ(error_of([&] { ff1.encrypt(six, 1, {}, out); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(error_of([&] { ff1.encrypt(six, 65537, {}, out); }), ErrorKind::invalid_parameter);
    std::vector<std::uint32_t> bad = six;
    bad[3] = 10;  // not a numeral of radix 10
    EXPECT_EQ(error_of([&] { ff1.encrypt(bad, 10, {}, out); }), ErrorKind::invalid_parameter);
    const std::vector<std::uint8_t> long_tweak(Ff1::max_tweak_bytes + 1);
    EXPECT_EQ(error_of([&] { ff1.encrypt(six, 10, long_tweak, out); }), ErrorKind::invalid_parameter);
}

// Decrypting undoes encrypting for every radix class, odd and even lengths, and tweaks across block boundaries.
TEST(Ff1, DecryptUndoesEncrypt) {
    const std::vector<std::uint8_t> key = from_hex("000102030405060708090a0b0c0d0e0f1011121314151617");
    const Ff1 ff1(key);
    std::uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1103515245u + 12345u; };
    int checked = 0;
    for (const std::uint32_t radix : {2u, 3u, 10u, 36u, 62u, 255u, 256u, 1000u, 65535u, 65536u}) {
        for (std::size_t length = 2; length <= 40; length += 3) {
            std::uint64_t domain = 1;
            for (std::size_t k = 0; k < length && domain < Ff1::min_domain; ++k) domain *= radix;
            if (domain < Ff1::min_domain) continue;
            std::vector<std::uint32_t> plain(length), cipher(length), back(length);
            for (auto& numeral : plain) numeral = next() % radix;
            std::vector<std::uint8_t> tweak(next() % 40);
            for (auto& byte : tweak) byte = static_cast<std::uint8_t>(next());
            ff1.encrypt(plain, radix, tweak, cipher);
            ff1.decrypt(cipher, radix, tweak, back);
            ASSERT_EQ(back, plain) << "radix " << radix << " length " << length;
            for (const std::uint32_t numeral : cipher) ASSERT_LT(numeral, radix);
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}
