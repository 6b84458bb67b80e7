// FF1 over an alphabet's characters: text against NIST's samples and @noble/ciphers (the numerals written with an
// alphabet), encrypted IDs against @noble/ciphers, both ways; forged, tampered and malformed codes; the default
// length.
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/crypt/alphabet_cipher.hpp"

#include "unit/common/jsonl.hpp"
#include "unit/crypt/crypt_vectors.hpp"

using idcodec::Error;
using idcodec::ErrorKind;
using idcodec::crypt::AlphabetCipher;
using idcodec::test::from_hex;

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// An alphabet of `radix` characters: 0-9a-z as NIST's samples write them, then code points from U+0100.
std::string alphabet_of(std::uint32_t radix) {
    std::string alphabet;
    for (std::uint32_t k = 0; k < radix; ++k)
        idcodec::utf8::append(alphabet, k < 36 ? "0123456789abcdefghijklmnopqrstuvwxyz"[k] : 0x100 + k);
    return alphabet;
}

std::string text_of(const idcodec::test::Json& numerals, const std::string& alphabet) {
    const std::u32string characters = *idcodec::utf8::decode(alphabet);
    std::string text;
    for (const auto& item : numerals.items) idcodec::utf8::append(text, characters[std::stoul(item.text)]);
    return text;
}

}  // namespace

TEST(AlphabetCipherVectors, TextOfNistAndNoble) {
    int matched = 0;
    for (const char* file : {"nist-samples.jsonl", "ff1-noble.jsonl"}) {
        for (const auto& record : idcodec::test::read_jsonl(idcodec::test::vectors_dir() + "/ff1/" + file)) {
            const auto radix = static_cast<std::uint32_t>(std::stoul(record["radix"].text));
            const std::string alphabet = alphabet_of(radix);
            const AlphabetCipher cipher(from_hex(record["key"].text), alphabet);
            const std::vector<std::uint8_t> tweak = from_hex(record["tweak"].text);
            const std::string plain = text_of(record["pt"], alphabet), expected = text_of(record["ct"], alphabet);
            if (const idcodec::test::Json* ct_text = record.find("ct_text")) {
                EXPECT_EQ(expected, ct_text->text);
            }
            const std::optional<std::string> encrypted = cipher.encrypt(plain, tweak);
            EXPECT_EQ(encrypted, expected) << file << ": key " << record["key"].text;
            const std::optional<std::string> decrypted = cipher.decrypt(expected, tweak);
            EXPECT_EQ(decrypted, plain) << file << ": key " << record["key"].text;
            matched += encrypted == expected && decrypted == plain;
        }
    }
    EXPECT_EQ(matched, 309);
}

TEST(AlphabetCipher, TextOutsideTheAlphabet) {
    const AlphabetCipher cipher(std::vector<std::uint8_t>(16, 9), "0123456789");
    EXPECT_EQ(cipher.encrypt("12345a", {}), std::nullopt);
    EXPECT_EQ(cipher.decrypt("12345\xff", {}), std::nullopt);
    try {
        (void)cipher.encrypt("12345", {});  // 10^5 < 10^6
        ADD_FAILURE() << "a domain below NIST's minimum was accepted";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
    }
    EXPECT_EQ(cipher.encrypt("123456", {})->size(), 6u);
}

TEST(AlphabetCipherVectors, NobleCiphers) {
    int matched = 0, records = 0;
    for (const auto& record : idcodec::test::read_jsonl(idcodec::test::vectors_dir() + "/ff1/idcrypt-noble.jsonl")) {
        ++records;
        const AlphabetCipher cipher(from_hex(record["key"].text), record["alphabet"].text);
        const std::uint64_t number = std::stoull(record["number"].text);
        const auto length = static_cast<std::size_t>(std::stoul(record["length"].text));
        const std::vector<std::uint8_t> tweak = bytes_of(record["tweak"].text);
        const std::string code = cipher.encode_id(number, tweak, length);
        EXPECT_EQ(code, record["code"].text) << "number " << number;
        const std::optional<std::uint64_t> back = cipher.decode_id(record["code"].text, tweak, length);
        EXPECT_EQ(back, number);
        matched += code == record["code"].text && back == number;
    }
    EXPECT_EQ(records, 300);
    EXPECT_EQ(matched, 300);
}

TEST(AlphabetCipher, DefaultLength) {
    EXPECT_EQ(AlphabetCipher::default_id_length(62), 14u);  // 62^13 < 2^63 * 10^6 < 62^14
    EXPECT_EQ(AlphabetCipher::default_id_length(10), 25u);  // 2^63 * 10^6 = 9.22e24
    EXPECT_EQ(AlphabetCipher::default_id_length(2), 83u);   // 2^63 * 10^6 < 2^83
    EXPECT_EQ(AlphabetCipher::default_id_length(65536), 6u);
    for (const std::uint32_t radix : {0u, 1u, 65537u}) {
        try {
            (void)AlphabetCipher::default_id_length(radix);
            ADD_FAILURE() << "radix " << radix << " was accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
        }
    }
}

TEST(AlphabetCipher, MaxLength) {
    // the longest whose second half, of length - length / 2 numerals, stays below 2^64
    EXPECT_EQ(AlphabetCipher::max_id_length(62), 20u);    // 62^10 < 2^64 < 62^11
    EXPECT_EQ(AlphabetCipher::max_id_length(10), 38u);    // 10^19 < 2^64 < 10^20
    EXPECT_EQ(AlphabetCipher::max_id_length(2), 126u);    // 2^63 < 2^64 = 2^(127 - 63)
    EXPECT_EQ(AlphabetCipher::max_id_length(65536), 6u);  // 65536^3 < 2^64 = 65536^(7 - 3)
    const AlphabetCipher cipher(std::vector<std::uint8_t>(16, 3), "0123456789");
    EXPECT_EQ(cipher.decode_id(cipher.encode_id(INT64_MAX, {}, 38), {}, 38), INT64_MAX);
    for (const std::size_t length : {39u, 1024u, 5000u}) {
        EXPECT_THROW((void)cipher.encode_id(1, {}, length), Error);
        EXPECT_THROW((void)cipher.decode_id(std::string(length, '1'), {}, length), Error);
    }
}

TEST(AlphabetCipher, RefusesBadArgumentsAndAnswersNothingForBadCodes) {
    const std::vector<std::uint8_t> key(32, 1);
    const AlphabetCipher cipher(key, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    const auto kind = [](auto&& call) {
        try {
            call();
        } catch (const Error& error) {
            return error.kind();
        }
        return ErrorKind::interrupted;
    };
    EXPECT_EQ(kind([&] { AlphabetCipher(key, "abca"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { AlphabetCipher(key, "a"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { AlphabetCipher(std::vector<std::uint8_t>(20), "ab"); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { (void)cipher.encode_id(INT64_MAX + 1ull, {}, 14); }), ErrorKind::out_of_range);
    EXPECT_EQ(kind([&] { (void)cipher.encode_id(62 * 62 * 62 * 62, {}, 4); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { (void)cipher.encode_id(1, {}, 3); }), ErrorKind::invalid_parameter);  // 62^3 < 10^6

    const std::vector<std::uint8_t> tweak = bytes_of("customer");
    const std::string code = cipher.encode_id(42, tweak, 14);
    EXPECT_EQ(code.size(), 14u);
    EXPECT_EQ(cipher.decode_id(code, tweak, 14), 42u);
    EXPECT_EQ(cipher.decode_id(code, bytes_of("invoice"), 14), std::nullopt);  // almost surely: a 2^63 in 62^14 chance
    EXPECT_EQ(cipher.decode_id(code.substr(1), tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode_id(code + "a", tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode_id(code.substr(0, 13) + "!", tweak, 14), std::nullopt);
    EXPECT_EQ(cipher.decode_id("\xff" + code.substr(1), tweak, 14), std::nullopt);
    // Of codes changed in one character, almost none decode (each with probability 2^63 / 62^14 < 10^-6).
    int accepted = 0;
    for (std::size_t at = 0; at < code.size(); ++at)
        for (const char c : std::string("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
            if (c == code[at]) continue;
            std::string changed = code;
            changed[at] = c;
            accepted += cipher.decode_id(changed, tweak, 14).has_value();
        }
    EXPECT_EQ(accepted, 0);
}
