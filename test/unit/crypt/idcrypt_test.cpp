// Encrypted IDs against @noble/ciphers (the numerals of each number encrypted there), both ways; forged, tampered
// and malformed codes; the default length.
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/crypt/idcrypt.hpp"

#include "unit/common/jsonl.hpp"

using idcodec::Error;
using idcodec::ErrorKind;
using idcodec::crypt::IdCipher;

namespace {

std::vector<std::uint8_t> from_hex(const std::string& hex) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t k = 0; k + 1 < hex.size(); k += 2)
        bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(k, 2), nullptr, 16)));
    return bytes;
}

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

}  // namespace

TEST(IdCipherVectors, NobleCiphers) {
    int matched = 0, records = 0;
    for (const auto& record : idcodec::test::read_jsonl(idcodec::test::vectors_dir() + "/ff1/idcrypt-noble.jsonl")) {
        ++records;
        const IdCipher cipher(from_hex(record["key"].text), record["alphabet"].text);
        const std::uint64_t number = std::stoull(record["number"].text);
        const auto length = static_cast<std::size_t>(std::stoul(record["length"].text));
        const std::vector<std::uint8_t> tweak = bytes_of(record["tweak"].text);
        const std::string code = cipher.encode(number, tweak, length);
        EXPECT_EQ(code, record["code"].text) << "number " << number;
        const std::optional<std::uint64_t> back = cipher.decode(record["code"].text, tweak, length);
        EXPECT_EQ(back, number);
        matched += code == record["code"].text && back == number;
    }
    EXPECT_EQ(records, 300);
    EXPECT_EQ(matched, 300);
}

TEST(IdCipher, DefaultLength) {
    EXPECT_EQ(IdCipher::default_length(62), 14u);  // 62^13 < 2^63 * 10^6 < 62^14
    EXPECT_EQ(IdCipher::default_length(10), 25u);  // 2^63 * 10^6 = 9.22e24
    EXPECT_EQ(IdCipher::default_length(2), 83u);   // 2^63 * 10^6 < 2^83
    EXPECT_EQ(IdCipher::default_length(65536), 6u);
    for (const std::uint32_t radix : {0u, 1u, 65537u}) {
        try {
            (void)IdCipher::default_length(radix);
            ADD_FAILURE() << "radix " << radix << " was accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
        }
    }
}

TEST(IdCipher, RefusesBadArgumentsAndAnswersNothingForBadCodes) {
    const std::vector<std::uint8_t> key(32, 1);
    const IdCipher cipher(key, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    const auto kind = [](auto&& call) {
        try {
            call();
        } catch (const Error& error) {
            return error.kind();
        }
        return ErrorKind::interrupted;
    };
    EXPECT_EQ(kind([&] { IdCipher(key, "abca"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { IdCipher(key, "a"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { IdCipher(std::vector<std::uint8_t>(20), "ab"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { (void)cipher.encode(INT64_MAX + 1ull, {}, 14); }), ErrorKind::out_of_range);
    EXPECT_EQ(kind([&] { (void)cipher.encode(62 * 62 * 62 * 62, {}, 4); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { (void)cipher.encode(1, {}, 3); }), ErrorKind::invalid_parameter);  // 62^3 < 10^6

    const std::vector<std::uint8_t> tweak = bytes_of("customer");
    const std::string code = cipher.encode(42, tweak, 14);
    EXPECT_EQ(code.size(), 14u);
    EXPECT_EQ(cipher.decode(code, tweak, 14), 42u);
    EXPECT_EQ(cipher.decode(code, bytes_of("invoice"), 14), std::nullopt);  // almost surely: a 2^63 in 62^14 chance
    EXPECT_EQ(cipher.decode(code.substr(1), tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode(code + "a", tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode(code.substr(0, 13) + "!", tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode("\xff" + code.substr(1), tweak, 14), std::nullopt);
    // Of codes changed in one character, almost none decode (each with probability 2^63 / 62^14 < 10^-6).
    int accepted = 0;
    for (std::size_t at = 0; at < code.size(); ++at)
        for (const char c : std::string("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
            if (c == code[at]) continue;
            std::string changed = code;
            changed[at] = c;
            accepted += cipher.decode(changed, tweak, 14).has_value();
        }
    EXPECT_EQ(accepted, 0);
}
