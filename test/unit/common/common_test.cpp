// What every family uses: UTF-8, code point lookup, division by multiplication and the bounded settings cache.
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "core/common/code_point_index.hpp"
#include "core/common/config_cache.hpp"
#include "core/common/divisor.hpp"
#include "core/common/random_block.hpp"
#include "core/common/utf8.hpp"

namespace idcodec {
namespace {

TEST(CodePointIndex, AsciiAndBeyond) {
    const CodePointIndex index(U"ab日😀a");
    EXPECT_EQ(index.find(U'a'), 0u);  // the first occurrence wins
    EXPECT_EQ(index.find(U'b'), 1u);
    EXPECT_EQ(index.find(U'日'), 2u);
    EXPECT_EQ(index.find(U'😀'), 3u);
    EXPECT_EQ(index.find(U'c'), CodePointIndex::npos);
    EXPECT_EQ(index.find(U'本'), CodePointIndex::npos);
}

TEST(Divisor, AgreesWithHardwareDivision) {
    std::mt19937_64 random(7);
    for (std::uint32_t d : {1u, 2u, 3u, 7u, 16u, 49u, 62u, 64u, 1000u, 65535u, 4294967295u}) {
        const Divisor divisor(d);
        for (int i = 0; i < 20000; ++i) {
            std::uint64_t n = random();
            if (i % 2) n >>= 32;  // the multiplication path
            if (i % 5 == 0) n = (n >> 32) | 0xFFFFFFFFull;
            std::uint64_t remainder;
            ASSERT_EQ(divisor.divide(n, remainder), n / d) << n << " / " << d;
            ASSERT_EQ(remainder, n % d) << n << " % " << d;
        }
    }
}

TEST(Utf8, RoundTripAndRejection) {
    const std::string text = "aä日😀";
    const auto decoded = utf8::decode(text);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, U"aä日😀");
    EXPECT_EQ(utf8::encode(*decoded), text);
    EXPECT_FALSE(utf8::decode("\xC0\xAF").has_value());          // overlong
    EXPECT_FALSE(utf8::decode("\xED\xA0\x80").has_value());      // surrogate
    EXPECT_FALSE(utf8::decode("\xF4\x90\x80\x80").has_value());  // above U+10FFFF
    EXPECT_FALSE(utf8::decode("\xE6\x97").has_value());          // truncated
}

struct Prepared {
    std::string value;
    std::size_t footprint() const { return value.size() * 1000; }
};

TEST(ConfigCache, KeepsTheMostRecentlyUsedWithinCapacity) {
    ConfigCache cache(2, SIZE_MAX);
    int built = 0;
    const auto get = [&](std::string_view salt) {
        const std::string_view parts[] = {salt, "alphabet"};
        return cache.get<Prepared>(SettingsKey::of(parts), [&] {
            ++built;
            return Prepared{std::string(salt)};
        });
    };
    EXPECT_EQ(get("a")->value, "a");
    EXPECT_EQ(get("b")->value, "b");
    EXPECT_EQ(get("a")->value, "a");  // hit, and now the most recent
    EXPECT_EQ(built, 2);
    get("c");  // evicts "b"
    EXPECT_EQ(cache.size(), 2u);
    get("a");
    EXPECT_EQ(built, 3);
    get("b");
    EXPECT_EQ(built, 4);
    cache.set_capacity(0);
    EXPECT_EQ(cache.size(), 0u);
}

TEST(ConfigCache, StaysWithinItsByteBudget) {
    ConfigCache cache(100, 10'000);
    for (const std::string_view salt : {"aaaa", "bbbb", "cccc"}) {
        const std::string_view parts[] = {salt};
        cache.get<Prepared>(SettingsKey::of(parts), [&] { return Prepared{std::string(salt)}; });
    }
    EXPECT_EQ(cache.size(), 2u);  // 4000 bytes each (plus keys): the third evicts the first
    EXPECT_LE(cache.bytes(), 10'000u);
    const std::string huge(20, 'x');
    const std::string_view parts[] = {huge};
    EXPECT_EQ(cache.get<Prepared>(SettingsKey::of(parts), [&] { return Prepared{huge}; })->value, huge);
    EXPECT_EQ(cache.size(), 0u);  // larger than the whole budget: returned, not kept
}

TEST(SettingsKey, PartsAreDelimitedByLength) {
    const std::string_view ab_c[] = {"ab", "c"};
    const std::string_view a_bc[] = {"a", "bc"};
    const auto key = SettingsKey::of(ab_c);
    EXPECT_TRUE(key.matches(ab_c));
    EXPECT_FALSE(key.matches(a_bc));
    EXPECT_NE(key.bytes(), SettingsKey::of(a_bc).bytes());
}

// A block filled before fork() is never handed out by both processes: the child refills it, so the bytes it takes
// differ from those its parent takes next. (Were the block kept across the fork, both would take the same bytes.)
TEST(RandomBlock, NeverSharedAcrossFork) {
    std::random_device device;
    const auto fill = [&](std::span<std::uint8_t> block) noexcept {
        for (auto& byte : block) byte = static_cast<std::uint8_t>(device());
        return true;
    };
    RandomBlock<4096> block;
    std::array<std::uint8_t, 8> parent_first{}, parent_next{}, child_first{};
    ASSERT_TRUE(block.take(parent_first, getpid(), fill));
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const bool taken = block.take(child_first, getpid(), fill);
        const bool written = write(pipe_ends[1], child_first.data(), child_first.size()) == 8;
        _exit(taken && written ? 0 : 1);
    }
    ASSERT_TRUE(block.take(parent_next, getpid(), fill));
    ASSERT_EQ(read(pipe_ends[0], child_first.data(), child_first.size()), 8);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_EQ(status, 0);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    EXPECT_NE(child_first, parent_next);
    EXPECT_NE(parent_first, parent_next);
}

TEST(RandomBlock, RefillsWhenUsedUpAndReportsAFailedFill) {
    int fills = 0;
    std::uint8_t value = 0;
    const auto fill = [&](std::span<std::uint8_t> block) noexcept {
        ++fills;
        for (auto& byte : block) byte = ++value;
        return true;
    };
    RandomBlock<16> block;
    std::array<std::uint8_t, 8> out{};
    for (int k = 0; k < 5; ++k) ASSERT_TRUE(block.take(out, 1, fill));
    EXPECT_EQ(fills, 3);
    EXPECT_EQ(out[0], 33);  // the third block's first byte
    const auto failing = [](std::span<std::uint8_t>) noexcept { return false; };
    EXPECT_TRUE(block.take(out, 1, failing));  // what is left of the block needs no fill
    EXPECT_FALSE(block.take(out, 1, failing));
    EXPECT_FALSE(block.take(out, 1, failing));
}

}  // namespace
}  // namespace idcodec
