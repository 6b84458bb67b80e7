#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/hashids.hpp"

#include "unit/common/jsonl.hpp"

namespace idcodec {
namespace {

using Numbers = std::vector<std::uint64_t>;

Numbers decoded(const Hashids& hashids, std::string_view id, int min_length = 0) {
    Numbers numbers;
    hashids.decode(id, min_length, numbers);
    return numbers;
}

TEST(Hashids, SeedAndReadmeFacts) {
    const Hashids salted("this is my salt", Hashids::default_alphabet);
    EXPECT_EQ(salted.encode(Numbers{347}), "yr8");
    EXPECT_EQ(salted.encode(Numbers{27, 986}), "nOSQY");
    EXPECT_EQ(decoded(salted, "nOSQY"), (Numbers{27, 986}));
    // '3kTMd' comes from an older, incompatible hashids version.
    EXPECT_EQ(decoded(salted, "3kTMd"), Numbers{});

    const Hashids plain("", Hashids::default_alphabet);
    EXPECT_EQ(plain.encode(Numbers{INT64_MAX}), "p21ZD04m8GQ42");
    EXPECT_EQ(decoded(plain, "p21ZD04m8GQ42"), Numbers{INT64_MAX});
    EXPECT_EQ(Hashids("sälz", Hashids::default_alphabet).encode(Numbers{12345}), "KAkO");
    EXPECT_EQ(Hashids("日本語", Hashids::default_alphabet).encode(Numbers{12345}), "59Yx");
}

TEST(Hashids, EmptyListEncodesToEmptyString) {
    EXPECT_EQ(Hashids("salt", Hashids::default_alphabet).encode(Numbers{}), "");
    EXPECT_EQ(decoded(Hashids("salt", Hashids::default_alphabet), ""), Numbers{});
}

TEST(Hashids, AlphabetNeedsSixteenUniqueCharacters) {
    try {
        Hashids("", "abcdefghijkabcdefghijkl");
        FAIL() << "expected an error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
        EXPECT_STREQ(error.what(), "hashids alphabet must contain at least 16 unique characters (got 12)");
    }
    EXPECT_NO_THROW(Hashids("", "abcdefghijklmnop"));
}

TEST(Hashids, DuplicateAlphabetCharactersAreDropped) {
    const Hashids with_duplicates("salt", "aabbccddeeffgghhiijjkkllmmnnooppqq");
    const Hashids unique("salt", "abcdefghijklmnopq");
    for (std::uint64_t n : {0ull, 1ull, 99ull, 123456789ull})
        EXPECT_EQ(with_duplicates.encode(Numbers{n}), unique.encode(Numbers{n}));
}

TEST(Hashids, MinLengthIsBounded) {
    const Hashids hashids("", Hashids::default_alphabet);
    EXPECT_THROW(hashids.encode(Numbers{1}, -1), Error);
    EXPECT_THROW(hashids.encode(Numbers{1}, Hashids::max_min_length + 1), Error);
    EXPECT_EQ(hashids.encode(Numbers{1}, Hashids::max_min_length).size(),
              static_cast<std::size_t>(Hashids::max_min_length));
}

TEST(Hashids, MinLengthPaddingRoundTrips) {
    const Hashids hashids("pad", "abcdefghijklmnopqrstuvwxyz");
    for (int min_length : {0, 1, 2, 3, 5, 8, 13, 21, 25, 26, 27, 50, 200}) {
        const std::string id = hashids.encode(Numbers{7, 0, 12345}, min_length);
        EXPECT_GE(id.size(), static_cast<std::size_t>(min_length));
        EXPECT_EQ(decoded(hashids, id, min_length), (Numbers{7, 0, 12345})) << min_length;
    }
}

TEST(Hashids, RejectsTamperedTruncatedAndOverflowingIds) {
    const Hashids hashids("this is my salt", Hashids::default_alphabet);
    const std::string id = hashids.encode(Numbers{1, 2, 3}, 10);
    for (std::size_t cut = 1; cut < id.size(); ++cut) EXPECT_EQ(decoded(hashids, id.substr(0, cut), 10), Numbers{});
    EXPECT_EQ(decoded(hashids, id + id, 10), Numbers{});
    EXPECT_EQ(decoded(hashids, "!!!"), Numbers{});
    EXPECT_EQ(decoded(hashids, "\xff\xfe"), Numbers{});
    // 2^64 and beyond cannot be represented: rejected rather than wrapped.
    const std::string huge = hashids.encode(Numbers{UINT64_MAX});
    EXPECT_EQ(decoded(hashids, huge), Numbers{UINT64_MAX});
    EXPECT_EQ(decoded(hashids, huge.substr(0, 1) + huge.substr(1) + huge.substr(1)), Numbers{});
    // A number of zero digits: one is 0, and more are a leading zero however many there are (they never overflow,
    // so the digit loop has a bound of its own, below and above which these lengths fall).
    const std::string zero = hashids.encode(Numbers{0});  // the lottery character, then the zero digit
    ASSERT_EQ(zero.size(), 2u);
    EXPECT_EQ(decoded(hashids, zero), Numbers{0});
    for (const std::size_t zeros : {2, 3, 64, 255, 256, 257, 100000})
        EXPECT_EQ(decoded(hashids, zero.substr(0, 1) + std::string(zeros, zero[1])), Numbers{}) << zeros << " zeros";
    // The longest numbers there are, right at that bound: every separator is in this alphabet, which leaves base 2
    // and 4-byte digits, so 2^63 and above take 64 digits, 256 bytes, and a separator or guard follows them.
    const Hashids widest("salt", "cfhistuCFHISTU\U0001F600\U0001F601");
    ASSERT_EQ(widest.alphabet().size(), 2u);
    for (const Numbers& numbers :
         {Numbers{UINT64_MAX}, Numbers{UINT64_MAX, 1}, Numbers{1, UINT64_MAX}, Numbers{std::uint64_t{1} << 63, 0}}) {
        for (const int min_length : {0, 67, 100}) {
            const std::string id = widest.encode(numbers, min_length);
            EXPECT_EQ(decoded(widest, id, min_length), numbers) << id.size() << " bytes, min_length " << min_length;
        }
    }
}

// With more numbers than the memo of alphabets keeps, the last alphabet lives in the walk, and the padding written
// after the numbers still reads it (encode and decode alike; the sanitizer build fails on a read after the walk).
TEST(Hashids, PadsAfterMoreNumbersThanTheMemoKeeps) {
    const Hashids hashids("this is my salt", Hashids::default_alphabet);
    const Numbers numbers(5000, 123456789);
    const std::string id = hashids.encode(numbers, 100000);
    EXPECT_EQ(id.size(), 100000u);
    EXPECT_EQ(decoded(hashids, id, 100000), numbers);
}

// Decoding accepts exactly what encoding writes: every one-character change of many IDs (to any alphabet,
// separator or guard character, a Unicode one included) decodes only when encoding its numbers gives it back.
TEST(Hashids, AcceptsAChangedIdOnlyWhenEncodeWritesIt) {
    const Hashids hashids("salt", "abcdefghijklmnopqrstuvwxyz0123456789日本");
    std::vector<std::string> symbols;
    for (const char32_t cp :
         std::u32string(hashids.alphabet()) + std::u32string(hashids.separators()) + std::u32string(hashids.guards())) {
        std::string utf8;
        utf8::append(utf8, cp);
        symbols.push_back(utf8);
    }
    std::size_t accepted = 0, checked = 0;
    for (const Numbers& numbers : {Numbers{0}, Numbers{7}, Numbers{1234567}, Numbers{0, 0}, Numbers{5, 1000, 3},
                                   Numbers{UINT64_MAX}, Numbers{36, 37, 1295, 1296}}) {
        for (const int min_length : {0, 1, 6, 12, 40}) {
            const std::u32string id = *utf8::decode(hashids.encode(numbers, min_length));
            for (std::size_t at = 0; at < id.size(); ++at) {
                for (const std::string& symbol : symbols) {
                    std::string changed = utf8::encode(id.substr(0, at)) + symbol + utf8::encode(id.substr(at + 1));
                    Numbers got;
                    const bool ok = hashids.decode(changed, min_length, got);
                    ++checked;
                    if (!ok) continue;
                    ++accepted;
                    ASSERT_EQ(hashids.encode(got, min_length), changed) << "accepted a changed ID";
                }
            }
        }
    }
    EXPECT_GT(checked, 10000u);
    EXPECT_GT(accepted, 0u);  // the unchanged IDs at least
}

TEST(Hashids, HexEncoding) {
    const Hashids hashids("", Hashids::default_alphabet);
    std::string id;
    hashids.encode_hex("507f1f77bcf86cd799439011", 0, id);
    std::string hex;
    ASSERT_TRUE(hashids.decode_hex(id, 0, hex));
    EXPECT_EQ(hex, "507f1f77bcf86cd799439011");
    hashids.encode_hex("DEADBEEF", 0, id);
    ASSERT_TRUE(hashids.decode_hex(id, 0, hex));
    EXPECT_EQ(hex, "deadbeef");
    EXPECT_THROW(hashids.encode_hex("12xz", 0, id), Error);
    EXPECT_FALSE(hashids.decode_hex("not a hashid", 0, hex));
}

// The reference decodes to arbitrarily large numbers; the core stops at 2^64-1 and rejects the rest.
Numbers parse_numbers(const test::Json& array) {
    Numbers numbers;
    for (const auto& item : array.items) {
        const bool fits = item.text.size() < 20 || (item.text.size() == 20 && item.text <= "18446744073709551615");
        if (!fits) return {};
        numbers.push_back(std::stoull(item.text));
    }
    return numbers;
}

TEST(HashidsVectors, EveryRecordMatchesHashidsJs) {
    const auto records = test::read_jsonl(test::vectors_dir() + "/hashids.jsonl");
    ASSERT_GT(records.size(), 5000u);
    std::size_t checked = 0;
    for (const auto& record : records) {
        const Hashids hashids(record["salt"].text, record["alphabet"].text);
        const int min_length = std::stoi(record["min_length"].text);
        const std::string& expected = record["hash"].text;
        const test::Json* op = record.find("op");
        const std::string line = record["salt"].text + " | " + record["alphabet"].text + " | " + expected;
        if (op == nullptr) {
            const Numbers numbers = parse_numbers(record["numbers"]);
            EXPECT_EQ(hashids.encode(numbers, min_length), expected) << line;
            EXPECT_EQ(decoded(hashids, expected, min_length), numbers) << line;
        } else if (op->text == "decode") {
            EXPECT_EQ(decoded(hashids, expected, min_length), parse_numbers(record["numbers"])) << line;
        } else if (op->text == "encode_hex") {
            std::string id;
            hashids.encode_hex(record["hex"].text, min_length, id);
            EXPECT_EQ(id, expected) << line;
        } else {
            ADD_FAILURE() << "unknown op " << op->text;
        }
        ++checked;
    }
    EXPECT_EQ(checked, records.size());
}

}  // namespace
}  // namespace idcodec
