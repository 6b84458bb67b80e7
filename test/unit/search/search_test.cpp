// Rabin-Karp search and winnowing. Expected fingerprints were computed independently with Python's big integers
// from the definitions; searches are checked against a naive scan.
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/search/search.hpp"
#include "core/search/winnow.hpp"

namespace idcodec::search {
namespace {

std::span<const std::uint8_t> bytes(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::vector<Match> find_all(std::string_view haystack, std::vector<std::string_view> needles, std::size_t batch) {
    std::vector<std::span<const std::uint8_t>> spans;
    for (const auto needle : needles) spans.push_back(bytes(needle));
    RabinKarpSearch search(spans);
    std::vector<Match> matches;
    for (std::size_t from = 0; from <= haystack.size();) from = search.find(bytes(haystack), from, batch, matches);
    return matches;
}

std::vector<Match> naive(std::string_view haystack, std::vector<std::string_view> needles) {
    std::vector<Match> matches;
    for (std::size_t offset = 0; offset <= haystack.size(); ++offset)
        for (std::size_t i = 0; i < needles.size(); ++i)
            if (haystack.substr(offset).starts_with(needles[i])) matches.push_back({offset, i});
    return matches;
}

TEST(RabinKarpFind, OverlappingAndEmpty) {
    EXPECT_EQ(find_all("aaaa", {"aa"}, 100), (std::vector<Match>{{0, 0}, {1, 0}, {2, 0}}));
    EXPECT_EQ(find_all("abc", {""}, 100), (std::vector<Match>{{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
    EXPECT_EQ(find_all("abc", {"abcd"}, 100), std::vector<Match>{});
    EXPECT_EQ(find_all("abab", {"b", "ab", "a"}, 100),
              (std::vector<Match>{{0, 1}, {0, 2}, {1, 0}, {2, 1}, {2, 2}, {3, 0}}));
}

TEST(RabinKarpFind, AgreesWithANaiveScanInAnyBatchSize) {
    std::mt19937 random(11);
    for (int round = 0; round < 300; ++round) {
        std::string haystack;
        const std::size_t length = random() % 200;
        for (std::size_t i = 0; i < length; ++i) haystack.push_back("ab\xc3\xa4"[random() % 4]);
        std::vector<std::string> storage;
        for (int n = 0; n < 1 + static_cast<int>(random() % 4); ++n) {
            const std::size_t start = haystack.empty() ? 0 : random() % haystack.size();
            storage.push_back(haystack.substr(start, random() % 5));
        }
        const std::vector<std::string_view> needles(storage.begin(), storage.end());
        const auto expected = naive(haystack, needles);
        EXPECT_EQ(find_all(haystack, needles, 1 + random() % 7), expected);
        EXPECT_EQ(find_all(haystack, needles, 1000), expected);
    }
}

std::vector<std::uint64_t> winnowed(std::u32string_view text, std::int64_t k, std::int64_t w) {
    return winnow(utf8::encode(text), k, w);
}

TEST(Winnow, SchleimerWilkersonAiken) {
    EXPECT_EQ(winnowed(U"adorunrunrunadorunrun", 5, 4),
              (std::vector<std::uint64_t>{35286473404575980u, 35286473404575980u, 35286473119356440u,
                                          569807189322892311u, 35286473404575980u}));
    EXPECT_EQ(winnowed(U"日本語のテキスト日本語のテキスト", 3, 3),
              (std::vector<std::uint64_t>{425098919968891346u, 517145811483078711u, 765529057639044290u,
                                          1184051614706647422u, 1201785389945015545u, 425098919968891346u,
                                          517145811483078711u, 765529057639044290u, 1184051614706647422u}));
    EXPECT_EQ(winnowed(U"ab", 3, 2), std::vector<std::uint64_t>{});
    EXPECT_EQ(winnowed(U"abcd", 2, 10), std::vector<std::uint64_t>{1627429141u});  // fewer grams than w
    EXPECT_THROW(winnowed(U"abcd", 0, 4), Error);
    EXPECT_THROW(winnowed(U"abcd", 4, max_winnow_parameter + 1), Error);
    EXPECT_THROW(winnowed(U"abcd", -1, 4), Error);
}

TEST(Winnow, RefusesMoreFingerprintsThanTheLimit) {
    const std::string text = utf8::encode(U"adorunrunrunadorunrun");  // five fingerprints with k = 5, w = 4
    EXPECT_EQ(winnow(text, 5, 4, {}, 5).size(), 5u);
    try {
        winnow(text, 5, 4, {}, 4);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::program_limit);
        EXPECT_STREQ(e.what(), "winnow would return more than 4 fingerprints");
    }
}

}  // namespace
}  // namespace idcodec::search
