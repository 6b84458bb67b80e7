// FF1 against NIST SP 800-38G's samples and @noble/ciphers, both ways, and its argument rules.
#include <cstdint>
#include <gtest/gtest.h>
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
