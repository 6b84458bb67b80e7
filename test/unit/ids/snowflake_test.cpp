// Snowflake layouts against Discord's documented example and the Sonyflake vectors of sony/sonyflake (Go); the
// shared ticket counter under a clock that stands still, steps back and runs out, alone and from many threads.
#include <algorithm>
#include <cstdint>
#include <cstring>
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

using Outcome = TicketCounter::Take::Outcome;
constexpr std::uint64_t wait_limit = 1000, length = 1000;

TEST(TicketCounter, RunsWithinAMillisecondAndWaitsForTheClock) {
    std::uint64_t last = 0, reserved = 1'000'000;
    TicketCounter tickets(last, reserved);
    EXPECT_EQ(tickets.take(1000, pgedge, wait_limit, length).ticket, 1000u << 12);
    EXPECT_EQ(tickets.take(1000, pgedge, wait_limit, length).ticket, (1000u << 12) + 1);
    // the clock moves on: the counter starts again at 0
    EXPECT_EQ(tickets.take(1001, pgedge, wait_limit, length).ticket, 1001u << 12);
    for (int i = 1; i < 4096; ++i) ASSERT_EQ(tickets.take(1001, pgedge, wait_limit, length).ticket, (1001u << 12) + i);
    // a spent millisecond is not borrowed from the next: the caller waits for the clock, nothing taken
    const auto spent = tickets.take(1001, pgedge, wait_limit, length);
    EXPECT_EQ(spent.outcome, Outcome::wait);
    EXPECT_EQ(spent.units, 1002u);
    EXPECT_EQ(last, (1001u << 12) + 4095);
    EXPECT_EQ(tickets.take(1002, pgedge, wait_limit, length).ticket, 1002u << 12);
    EXPECT_EQ(compose(1003u << 12 | 5, 1023, pgedge), (std::int64_t{1003} << 22) | (1023 << 12) | 5);
}

TEST(TicketCounter, AClockBehindIsWaitedForUpToTheLimitThenRefused) {
    std::uint64_t last = 5000u << 12 | 7, reserved = 1'000'000;
    TicketCounter tickets(last, reserved);
    const auto short_step = tickets.take(4990, pgedge, wait_limit, length);
    EXPECT_EQ(short_step.outcome, Outcome::wait);
    EXPECT_EQ(short_step.units, 5000u);
    EXPECT_EQ(tickets.take(5000 - wait_limit, pgedge, wait_limit, length).outcome, Outcome::wait);
    const auto long_step = tickets.take(5000 - wait_limit - 1, pgedge, wait_limit, length);
    EXPECT_EQ(long_step.outcome, Outcome::clock_behind);
    EXPECT_EQ(long_step.units, 5000u);
    EXPECT_EQ(last, 5000u << 12 | 7);
    // the clock back at the last ticket's millisecond: the counter goes on there
    EXPECT_EQ(tickets.take(5000, pgedge, wait_limit, length).ticket, (5000u << 12) + 8);
}

TEST(TicketCounter, NothingAtOrPastTheReservation) {
    std::uint64_t last = 0, reserved = 2000;
    TicketCounter tickets(last, reserved);
    const auto needs = tickets.take(2000, pgedge, wait_limit, length);
    EXPECT_EQ(needs.outcome, Outcome::reserve);
    EXPECT_EQ(needs.units, 2000u);
    EXPECT_EQ(last, 0u);
    const auto early = tickets.take(1000, pgedge, wait_limit, length);
    EXPECT_EQ(early.outcome, Outcome::taken);
    EXPECT_FALSE(early.renew);
    // within half the reservation's length of its end: taken, and time to renew
    const auto late = tickets.take(1500, pgedge, wait_limit, length);
    EXPECT_EQ(late.outcome, Outcome::taken);
    EXPECT_TRUE(late.renew);
}

TEST(TicketCounter, RefusesPastTheLastMillisecondAndTakesNothing) {
    const std::uint64_t last_ms = (std::uint64_t{1} << 41) - 1;
    std::uint64_t last = last_ms << 12 | 4094, reserved = std::uint64_t{1} << 42;
    TicketCounter tickets(last, reserved);
    EXPECT_EQ(tickets.take(last_ms, pgedge, wait_limit, length).ticket, last_ms << 12 | 4095);
    EXPECT_EQ(tickets.take(last_ms, pgedge, wait_limit, length).outcome, Outcome::wait);
    EXPECT_EQ(tickets.take(last_ms + 1, pgedge, wait_limit, length).outcome, Outcome::spent);
    EXPECT_EQ(last, last_ms << 12 | 4095);
    EXPECT_EQ(compose(last, 1023, pgedge), INT64_MAX);
}

TEST(TicketCounter, ThreadsNeverShareATicketNorRunAheadOfTheClock) {
    std::uint64_t last = 0, reserved = 1'000'000;
    constexpr int threads = 8, per_thread = 50'000;
    std::vector<std::vector<std::uint64_t>> taken(threads);
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t)
        running.emplace_back([&, t] {
            TicketCounter tickets(last, reserved);
            // a clock that moves one millisecond every 1000 calls of each thread: the threads together ask for
            // more than a millisecond holds, and wait (here: ask again at a later reading) for the next
            for (int i = 0; taken[t].size() < per_thread; ++i) {
                const std::uint64_t now = 5 + i / 1000;
                const auto take = tickets.take(now, pgedge, wait_limit, length);
                if (take.outcome == Outcome::taken) {
                    ASSERT_EQ(take.ticket >> 12, now);
                    taken[t].push_back(take.ticket);
                } else {
                    ASSERT_EQ(take.outcome, Outcome::wait);
                }
            }
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

TEST(Reservation, RecordsReadBackAndRefuseWhatIsNone) {
    const auto bytes = reservation_record(1'764'000'000'123);
    const std::string record(bytes.begin(), bytes.end());
    EXPECT_EQ(record.size(), reservation_file_size);
    EXPECT_TRUE(record.starts_with("idcodec snowflake v2 1764000000123\n   "));
    const auto read = read_reservation_record(record);
    EXPECT_EQ(read.outcome, ReadReservation::Outcome::reserved);
    EXPECT_EQ(read.unix_ms, 1'764'000'000'123);
    EXPECT_EQ(read_reservation_record("").outcome, ReadReservation::Outcome::none);
    EXPECT_EQ(read_reservation_record(record.substr(0, 63)).outcome, ReadReservation::Outcome::malformed);
    std::string no_digits = record;
    no_digits.replace(21, 13, 13, 'x');
    EXPECT_EQ(read_reservation_record(no_digits).outcome, ReadReservation::Outcome::malformed);
    std::string trailing = record;
    trailing.back() = 'x';
    EXPECT_EQ(read_reservation_record(trailing).outcome, ReadReservation::Outcome::malformed);
    // 1.6.0's file: its last ticket in the first 8 bytes; the next millisecond is reserved
    std::string old(reservation_file_size, '\0');
    const std::uint64_t ticket = std::uint64_t{123'456} << 12 | 99;
    std::memcpy(old.data(), &ticket, sizeof ticket);
    const auto from_old = read_reservation_record(old);
    EXPECT_EQ(from_old.outcome, ReadReservation::Outcome::ticket_word);
    EXPECT_EQ(from_old.unix_ms, 1'672'531'200'000 + 123'456 + 1);
    // a word no ticket can be, as a 1.6.0 process reads the new record's first bytes
    std::uint64_t word;
    std::memcpy(&word, record.data(), sizeof word);
    EXPECT_NE(word >> 53, 0u);
}

TEST(Snowflake, InstagramUsesTheSignBit) {
    const Layout instagram = *named_layout("instagram");
    EXPECT_EQ(instagram.time_bits(), 41);
    EXPECT_TRUE(holds_id(-1, instagram));
    EXPECT_FALSE(holds_id(-1, pgedge));
    // the last millisecond's least ID has every time bit set: the sign bit too
    const std::int64_t last_ms = (std::int64_t{1} << 41) - 1;
    const std::int64_t end_us = instagram.epoch_unix_us + last_ms * 1000;
    EXPECT_EQ(least_id(end_us, instagram), static_cast<std::int64_t>(std::uint64_t(last_ms) << 23));
    EXPECT_EQ(unix_us(-1, instagram), end_us);
    EXPECT_EQ(node(-1, instagram), 8191u);
    EXPECT_EQ(counter(-1, instagram), 1023u);
    // 2^40 ms after its epoch: the first negative IDs
    EXPECT_LT(*least_id(instagram.epoch_unix_us + (std::int64_t{1} << 40) * 1000, instagram), 0);
    EXPECT_GT(*least_id(instagram.epoch_unix_us + ((std::int64_t{1} << 40) - 1) * 1000, instagram), 0);
}

}  // namespace
}  // namespace idcodec::snowflake
