#include "core/sqids.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "jsonl.hpp"

namespace idcodec {
namespace {

using Numbers = std::vector<std::uint64_t>;

Numbers decoded(const Sqids& sqids, std::string_view id, bool canonical = false) {
    Numbers numbers;
    sqids.decode(id, numbers, canonical);
    return numbers;
}

std::string error_of(std::string_view alphabet, int min_length, std::span<const std::string_view> blocklist = {}) {
    try {
        Sqids sqids(alphabet, min_length, blocklist);
        return "no error";
    } catch (const Error& error) {
        return error.what();
    }
}

TEST(Sqids, ReadmeFacts) {
    const Sqids sqids(Sqids::default_alphabet, 0);
    EXPECT_EQ(sqids.encode(Numbers{1, 2, 3}), "86Rf07");
    EXPECT_EQ(sqids.encode(Numbers{INT64_MAX}), "AqkYhRmbHpEX");
    EXPECT_EQ(sqids.encode(Numbers{0, INT64_MAX}), "74dZBaiGKAy90I");
    EXPECT_EQ(sqids.encode(Numbers{7399616855974452}), "i3nVc0ckRm");
    EXPECT_EQ(decoded(sqids, "86Rf07"), (Numbers{1, 2, 3}));
    EXPECT_EQ(decoded(sqids, "AqkYhRmbHpEX"), Numbers{INT64_MAX});
    EXPECT_EQ(Sqids::default_blocklist().size(), 560u);
}

TEST(Sqids, ValidationFollowsTheSpecOrder) {
    EXPECT_EQ(error_of("ab\xc3\xa4", 0), "Alphabet cannot contain multibyte characters");
    EXPECT_EQ(error_of("ab", 0), "Alphabet length must be at least 3");
    EXPECT_EQ(error_of("aab", 0), "Alphabet must contain unique characters");
    EXPECT_EQ(error_of("abc", -1), "Minimum length has to be between 0 and 255");
    EXPECT_EQ(error_of("abc", 256), "Minimum length has to be between 0 and 255");
    EXPECT_EQ(error_of("ab", 300), "Alphabet length must be at least 3");
    EXPECT_EQ(error_of("abc", 255), "no error");
}

// Expected values from sqids 0.3.0's isBlockedId on the same cases.
TEST(Blocklist, SpecRules) {
    struct Case {
        std::string_view id;
        std::string word;
        bool blocked;
    };
    const Case cases[] = {
        {"abc", "abc", true},      {"abcd", "abc", false},  {"xabcdx", "abcd", true}, {"xab1dx", "ab1d", false},
        {"ab1dxx", "ab1d", true},  {"xxab1d", "ab1d", true}, {"ABCD", "abcd", true},   {"abc", "abcd", false},
        {"xABCDx", "abcd", true},  {"ab1d", "ab1d", true},  {"a1c", "a1c", true},     {"xa1cx", "a1c", false},
    };
    for (const Case& c : cases) {
        const std::string words[] = {c.word};
        EXPECT_EQ(Blocklist(words, Sqids::default_alphabet).blocks(c.id), c.blocked) << c.id << " / " << c.word;
    }
}

TEST(Blocklist, OverlappingWordsAndSuffixLinks) {
    const std::string words[] = {"abcd", "bcdf", "cdfg1"};
    const Blocklist blocklist(words, Sqids::default_alphabet);
    EXPECT_TRUE(blocklist.blocks("xxbcdfxx"));   // found through a failure link after "abcd" fails at 'f'
    EXPECT_TRUE(blocklist.blocks("xxabcdfg1"));  // a digit word as suffix, reached through failure links
    EXPECT_TRUE(blocklist.blocks("cdfg1xxxx"));  // ... and as prefix
    EXPECT_FALSE(blocklist.blocks("xcdfg1xx"));
}

TEST(Blocklist, WordsAreFilteredAsJavaScriptLowercasesThem) {
    const Sqids open(Sqids::default_alphabet, 0, std::span<const std::string_view>{});
    std::uint64_t n = 0;
    std::string id;
    for (;; ++n) {  // an ID of 4+ characters with a 'k' in it
        id = open.encode(Numbers{n});
        if (id.size() >= 4 && (id.find('k') != std::string::npos || id.find('K') != std::string::npos)) break;
    }
    std::string word;
    for (const char c : id) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto encode_with = [&](const std::string& w) {
        const std::string_view words[] = {w};
        return Sqids(Sqids::default_alphabet, 0, words).encode(Numbers{n});
    };
    EXPECT_NE(encode_with(word), id);                                   // the word itself blocks
    std::string kelvin = word;
    kelvin.replace(kelvin.find('k'), 1, "\u212A");
    EXPECT_EQ(encode_with(kelvin), encode_with(word));                  // the Kelvin sign lowercases to 'k'
    EXPECT_EQ(encode_with(word + "\u00e4"), id);                        // other non-ASCII: the word is dropped
    EXPECT_EQ(encode_with(word + "-"), id);                             // not in the alphabet: dropped
}

TEST(Sqids, DecodeEdgeCases) {
    const Sqids sqids(Sqids::default_alphabet, 0);
    EXPECT_EQ(decoded(sqids, ""), Numbers{});
    EXPECT_EQ(decoded(sqids, "86Rf0*"), Numbers{});  // a character outside the alphabet
    // Beyond 2^64-1: rejected, never wrapped.
    EXPECT_EQ(decoded(sqids, "AqkYhRmbHpEXAqkYhRmbHpEX").size() <= 1, true);
    const std::string id = sqids.encode(Numbers{1, 2, 3});
    EXPECT_EQ(decoded(sqids, id, true), (Numbers{1, 2, 3}));
    EXPECT_EQ(decoded(sqids, id + "0", true), Numbers{});
}

Numbers parse_numbers(const test::Json& array) {
    Numbers numbers;
    for (const auto& item : array.items) numbers.push_back(std::stoull(item.text));
    return numbers;
}

TEST(SqidsVectors, EveryRecordMatchesSqidsJs) {
    const auto records = test::read_jsonl(test::vectors_dir() + "/sqids.jsonl");
    ASSERT_GT(records.size(), 3000u);
    std::size_t errors = 0;
    for (const auto& record : records) {
        const std::string& alphabet = record["alphabet"].text;
        const int min_length = std::stoi(record["min_length"].text);
        std::vector<std::string_view> words;
        const test::Json& blocklist = record["blocklist"];
        for (const auto& word : blocklist.items) words.push_back(word.text);
        const auto list = blocklist.type == test::Json::Type::string
                              ? std::optional<std::span<const std::string_view>>()
                              : std::optional<std::span<const std::string_view>>(words);
        const Numbers numbers = parse_numbers(record["numbers"]);
        const std::string context = alphabet + " | " + record["min_length"].text;
        if (!record["error"].is_null()) {
            ++errors;
            try {
                Sqids(alphabet, min_length, list).encode(numbers);
                ADD_FAILURE() << "expected error " << record["error"].text << " for " << context;
            } catch (const Error& error) {
                EXPECT_EQ(error.what(), record["error"].text) << context;
            }
            continue;
        }
        const Sqids sqids(alphabet, min_length, list);
        EXPECT_EQ(sqids.encode(numbers), record["id"].text) << context;
        EXPECT_EQ(decoded(sqids, record["id"].text, true), numbers) << context;
    }
    EXPECT_EQ(errors, 1u);
}

}  // namespace
}  // namespace idcodec
