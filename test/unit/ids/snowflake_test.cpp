// Snowflake layouts against Discord's documented example and the Sonyflake vectors of sony/sonyflake (Go); the
// shared ticket counter under a clock that stands still, steps back and runs out, alone and from many threads.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/common/error.hpp"
#include "core/ids/snowflake.hpp"

namespace idcodec::snowflake {
namespace {

constexpr std::int64_t unix_us_of_ms(std::int64_t ms) { return ms * 1000; }

TEST(Snowflake, DiscordDocumentedExample) {
    // 2016-04-30 11:18:25.796 UTC, internal worker 1, internal process 0, increment 7
    const Layout discord = *named_layout("discord");
    EXPECT_EQ(unix_us(175928847299117063, discord), unix_us_of_ms(1462015105796));
    EXPECT_EQ(node(175928847299117063, discord), 1u << 5);
    EXPECT_EQ(counter(175928847299117063, discord), 7u);
}

TEST(Snowflake, SonyflakeVectors) {
    std::ifstream file("test/vectors/sonyflake/sonyflake.tsv");
    ASSERT_TRUE(file) << "run from the repository's root";
    const Layout sonyflake = *named_layout("sonyflake");
    std::string line;
    int cases = 0;
    while (std::getline(file, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::int64_t id, time, unix_ms;
        std::uint32_t sequence, machine;
        ASSERT_TRUE(fields >> id >> time >> sequence >> machine >> unix_ms) << line;
        EXPECT_EQ(time_units(id, sonyflake), static_cast<std::uint64_t>(time)) << line;
        EXPECT_EQ(counter(id, sonyflake), sequence) << line;
        EXPECT_EQ(node(id, sonyflake), machine) << line;
        EXPECT_EQ(unix_us(id, sonyflake), unix_us_of_ms(unix_ms)) << line;
        EXPECT_EQ(least_id(unix_us_of_ms(unix_ms), sonyflake), time << 24) << line;
        ++cases;
    }
    EXPECT_EQ(cases, 1000);
}

TEST(Snowflake, NamesAndCustomLayouts) {
    EXPECT_FALSE(named_layout("Twitter"));
    EXPECT_FALSE(named_layout(""));
    for (std::string_view name : {"pgedge", "twitter", "discord", "instagram", "sonyflake", "mastodon"})
        EXPECT_TRUE(named_layout(name)) << name;
    EXPECT_THROW(custom_layout(0, 0, 10, 12), Error);
    EXPECT_THROW(custom_layout(0, 1, 32, 0), Error);
    EXPECT_THROW(custom_layout(0, 1, 31, 32), Error);
    EXPECT_THROW(custom_layout(0, 1, -1, 12), Error);
    const Layout widest = custom_layout(0, 1, 31, 31);
    EXPECT_EQ(widest.time_bits(), 1);
    EXPECT_EQ(time_units(INT64_MAX, widest), 1u);
}

TEST(Snowflake, LeastIdBounds) {
    EXPECT_EQ(least_id(pgedge.epoch_unix_us, pgedge), 0);
    EXPECT_EQ(least_id(pgedge.epoch_unix_us - 1, pgedge), std::nullopt);
    const std::int64_t last_ms = (std::int64_t{1} << 41) - 1;
    EXPECT_EQ(least_id(pgedge.epoch_unix_us + last_ms * 1000 + 999, pgedge), last_ms << 22);
    EXPECT_EQ(least_id(pgedge.epoch_unix_us + (last_ms + 1) * 1000, pgedge), std::nullopt);
    EXPECT_EQ(least_id(INT64_MIN, pgedge), std::nullopt);
    EXPECT_EQ(unix_us(INT64_MAX, custom_layout(INT64_MAX - 5, 1, 0, 0)), std::nullopt);
}

TEST(TicketCounter, RunsWithinAMillisecondAndBorrowsOnce) {
    std::uint64_t shared = 0;
    TicketCounter tickets(shared);
    EXPECT_EQ(tickets.take(1000, pgedge), 1000u << 12);
    EXPECT_EQ(tickets.take(1000, pgedge), (1000u << 12) + 1);
    // the clock moves on: the counter starts again at 0
    EXPECT_EQ(tickets.take(1001, pgedge), 1001u << 12);
    // a spent millisecond borrows the next
    for (int i = 1; i < 4096; ++i) ASSERT_EQ(tickets.take(1001, pgedge), (1001u << 12) + i);
    EXPECT_EQ(tickets.take(1001, pgedge), 1002u << 12);
    // the clock steps back: the tickets go on above the last
    EXPECT_EQ(tickets.take(10, pgedge), (1002u << 12) + 1);
    // and resume the clock's time once it has passed them
    EXPECT_EQ(tickets.take(1003, pgedge), 1003u << 12);
    EXPECT_EQ(shared, 1003u << 12);
    EXPECT_EQ(compose(1003u << 12 | 5, 1023, pgedge), (std::int64_t{1003} << 22) | (1023 << 12) | 5);
}

TEST(TicketCounter, RefusesPastTheLastMillisecondAndTakesNothing) {
    const std::uint64_t last_ms = (std::uint64_t{1} << 41) - 1;
    std::uint64_t shared = last_ms << 12 | 4094;
    TicketCounter tickets(shared);
    EXPECT_EQ(tickets.take(last_ms, pgedge), last_ms << 12 | 4095);
    EXPECT_EQ(tickets.take(last_ms, pgedge), std::nullopt);
    EXPECT_EQ(tickets.take(last_ms + 1, pgedge), std::nullopt);
    EXPECT_EQ(shared, last_ms << 12 | 4095);
    EXPECT_EQ(compose(shared, 1023, pgedge), INT64_MAX);
}

TEST(TicketCounter, ThreadsNeverShareATicket) {
    std::uint64_t shared = 0;
    constexpr int threads = 8, per_thread = 50'000;
    std::vector<std::vector<std::uint64_t>> taken(threads);
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t)
        running.emplace_back([&, t] {
            TicketCounter tickets(shared);
            // a clock that moves one millisecond every 1000 calls of each thread, so all of them borrow
            for (int i = 0; i < per_thread; ++i) taken[t].push_back(*tickets.take(5 + i / 1000, pgedge));
        });
    for (auto& thread : running) thread.join();
    std::vector<std::uint64_t> all;
    for (const auto& own : taken) {
        EXPECT_TRUE(std::adjacent_find(own.begin(), own.end(), std::greater_equal<>()) == own.end());
        all.insert(all.end(), own.begin(), own.end());
    }
    std::sort(all.begin(), all.end());
    EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end());
    EXPECT_EQ(all.size(), std::size_t{threads} * per_thread);
}

}  // namespace
}  // namespace idcodec::snowflake
