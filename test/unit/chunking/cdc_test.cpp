// The chunker and rolling-hash factory, the Rabin-Karp rolling hash and gzip's moving sum. Expected hashes were
// computed independently with Python's big integers from the definitions.
#include <gtest/gtest.h>
#include <string_view>
#include <vector>

#include "core/chunking/cdc.hpp"
#include "core/chunking/moving_sum.hpp"
#include "core/common/error.hpp"
#include "core/common/rabin_karp.hpp"

namespace idcodec::cdc {
namespace {

std::span<const std::uint8_t> bytes(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

TEST(RabinKarp, WindowHashes) {
    const std::string_view data = "The quick brown fox jumps over the lazy dog";
    const auto hash = make_rolling_hash("rabin_karp", 5, 0);
    EXPECT_EQ(hash->start(bytes(data.substr(0, 5))), 1109810091965738337u);
    EXPECT_EQ(hash->roll(data[0], data[5]), 245121143693423449u);
    EXPECT_EQ(hash->roll(data[1], data[6]), 164389988384185081u);
    EXPECT_EQ(hash->roll(data[2], data[7]), 492199634011108565u);
    EXPECT_EQ(make_rolling_hash("rabin_karp", 8, 0)->start(bytes("\xff\xff\xff\xff\xff\xff\xff\xff")),
              869353095880214558u);
}

TEST(MovingSum, SumOfTheWindow) {
    const auto hash = make_rolling_hash("moving_sum", 3, 0);
    EXPECT_EQ(hash->start(bytes("abc")), 97u + 98 + 99);
    EXPECT_EQ(hash->roll('a', 'd'), 98u + 99 + 100);
}

// Found by fuzzing the factory as SQL would call it: a size of 0 never ended a chunk (and avg_size divides).
TEST(Chunkers, RefuseSizesOfZero) {
    for (const std::string_view algorithm : {"fastcdc", "rabin", "buzhash", "moving_sum"}) {
        EXPECT_THROW(make_chunker(algorithm, {0, 0, 0}), Error) << algorithm;
        EXPECT_THROW(make_chunker(algorithm, {64, 0, 1024}), Error) << algorithm;
    }
}

TEST(MovingSumChunker, CutsWhereTheWindowSumIsAMultiple) {
    // 4-byte window, modulus 16: the first window of four 4s sums to 16.
    const std::vector<std::uint8_t> data = {1, 1, 1, 1, 4, 4, 4, 4, 9, 9, 9, 9, 9, 9};
    const auto chunker = make_moving_sum_chunker({4, 16, 100, 0, 4});
    EXPECT_EQ(chunker->cut(data, true).length, 8u);
    const auto capped = make_moving_sum_chunker({4, 16, 6, 0, 4});
    EXPECT_EQ(capped->cut(data, true).length, 6u);
    EXPECT_EQ(chunker->cut(std::span(data).first(3), true).length, 3u);
}

}  // namespace
}  // namespace idcodec::cdc
