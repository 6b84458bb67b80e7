// Snowflake IDs: 64-bit integers whose high bits count time units since an epoch and whose low bits name the node
// that made them and count the IDs it made in that unit. The layouts in use differ in epoch, unit, widths and the
// order of the low fields; decoding reads any of them, generation makes the pgEdge snowflake 2.x layout.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>

namespace idcodec::snowflake {

enum class LowFields {
    node_then_counter,  // time | node | counter (Twitter, Discord, Instagram, pgEdge)
    counter_then_node,  // time | counter | node (Sonyflake: its sequence above its machine ID)
    unnamed,            // time | bits that are neither (Mastodon: a hash and a sequence mixed)
};

struct Layout {
    std::int64_t epoch_unix_us;  // the time of a time part of 0, in microseconds since 1970
    std::int64_t unit_us;        // the length of one time unit, above 0
    int node_bits;
    int counter_bits;
    LowFields fields;
    // 63 where IDs are non-negative bigints; 64 where the layout uses the sign bit too (Instagram's 41 + 13 + 10),
    // whose IDs from some time on are negative bigints.
    int id_bits = 63;

    constexpr int low_bits() const noexcept { return node_bits + counter_bits; }
    // The time part has the bits above the low fields.
    constexpr int time_bits() const noexcept { return id_bits - low_bits(); }
};

inline constexpr std::int64_t us_per_ms = 1000;

// pgEdge snowflake 2.x, what snowflake_generate() makes: 41 bits of milliseconds since 2023-01-01 00:00:00 UTC,
// 10 bits of node, 12 bits of counter.
inline constexpr Layout pgedge{1'672'531'200'000 * us_per_ms, us_per_ms, 10, 12, LowFields::node_then_counter};

// The named layouts: pgedge, twitter, discord, instagram, sonyflake, mastodon. Nothing for another name.
std::optional<Layout> named_layout(std::string_view name) noexcept;
inline constexpr std::string_view layout_names = "pgedge, twitter, discord, instagram, sonyflake, mastodon";

// Throws Error(invalid_parameter) unless the widths leave at least one time bit, each fits an SQL integer (0 to 31)
// and the unit is positive.
Layout custom_layout(std::int64_t epoch_unix_us, std::int64_t unit_us, int node_bits, int counter_bits);

// Whether an ID can be one of the layout's: non-negative, unless the layout uses the sign bit.
constexpr bool holds_id(std::int64_t id, const Layout& layout) noexcept { return id >= 0 || layout.id_bits == 64; }

// The parts of an ID the layout holds (holds_id).
std::uint64_t time_units(std::int64_t id, const Layout& layout) noexcept;
std::uint32_t node(std::int64_t id, const Layout& layout) noexcept;
std::uint32_t counter(std::int64_t id, const Layout& layout) noexcept;

// The start of the ID's time unit in microseconds since 1970; nothing when that overflows 64 bits (a custom layout
// with a long unit or a far epoch).
std::optional<std::int64_t> unix_us(std::int64_t id, const Layout& layout) noexcept;

// The least ID of the time unit holding `unix_us` (all its low bits 0; a negative bigint where a 64-bit layout's time
// part reaches the sign bit); nothing before the epoch or past the last unit the time part can count.
std::optional<std::int64_t> least_id(std::int64_t unix_us, const Layout& layout) noexcept;

// Generation shares two 64-bit words among every process of a node: the last ticket handed out, a ticket being the
// time part above the counter (time << counter_bits | counter), and the reservation, a time part below which every
// ticket handed out lies (kept durable by the caller, so a restart can start above it). A new ticket is the clock's
// first ticket when the clock is past the last one, else the last one plus 1; it is handed out only when its time
// part is the clock's: a spent counter or a clock behind the last ticket waits for the clock rather than borrowing
// from the future, so no ticket's time is ever ahead of the clock that took it.
class TicketCounter {
public:
    static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free, "tickets are shared between processes");

    struct Take {
        enum class Outcome {
            taken,         // `ticket` is this caller's
            wait,          // the next ticket's time part is `units`, ahead of the clock by at most the wait limit
            clock_behind,  // ... ahead by more than that: the clock has stepped back
            reserve,       // the next ticket's time part `units` is not below the reservation: raise it first
            spent,         // the clock is past the layout's last time unit
        };
        Outcome outcome;
        std::uint64_t ticket = 0;
        std::uint64_t units = 0;
        bool renew = false;  // taken, and the reservation ends within half its length: time to raise it
    };

    TicketCounter(std::uint64_t& shared_last, std::uint64_t& shared_reserved) noexcept
        : last_(shared_last), reserved_(shared_reserved) {}

    // The next ticket at a clock reading of `now_units` since the layout's epoch. `wait_limit` and
    // `reservation_length` are in time units.
    Take take(std::uint64_t now_units, const Layout& layout, std::uint64_t wait_limit,
              std::uint64_t reservation_length) noexcept {
        using Outcome = Take::Outcome;
        if (now_units >= (std::uint64_t{1} << layout.time_bits())) return {Outcome::spent};
        const std::uint64_t at_clock = now_units << layout.counter_bits;
        std::uint64_t seen = last_.load(std::memory_order_relaxed);
        for (;;) {
            const std::uint64_t next = at_clock > seen ? at_clock : seen + 1;
            const std::uint64_t next_units = next >> layout.counter_bits;
            if (next_units != now_units)
                return {next_units - now_units <= wait_limit ? Outcome::wait : Outcome::clock_behind, 0, next_units};
            const std::uint64_t reserved = reserved_.load(std::memory_order_acquire);
            if (next_units >= reserved) return {Outcome::reserve, 0, next_units};
            if (last_.compare_exchange_weak(seen, next, std::memory_order_acq_rel, std::memory_order_relaxed))
                return {Outcome::taken, next, next_units, reserved - next_units <= reservation_length / 2};
        }
    }

private:
    std::atomic_ref<std::uint64_t> last_;
    std::atomic_ref<std::uint64_t> reserved_;
};

// How snowflake_generate() uses the counter, in milliseconds: a clock behind the last ticket by up to
// `clock_wait_limit_ms` is waited for, more is an error; the reservation reaches `reservation_ms` past the clock;
// and the first ticket of a server's life (a start, a restart after a crash, a promotion) is at least
// `start_margin_ms` past the clock, so a promoted standby comes after every ticket of a former primary whose clock
// was at most that far ahead of its own.
inline constexpr std::uint64_t clock_wait_limit_ms = 1000;
inline constexpr std::uint64_t reservation_ms = 1000;
inline constexpr std::uint64_t start_margin_ms = 100;

// The reservation as its file holds it: 64 bytes, "idcodec snowflake v2 <unix ms>\n" padded with spaces, readable
// by an operator and written in place. (1.6.0's file held its last ticket in its first 8 bytes, in the pgEdge
// layout; a reservation text in the same bytes is no ticket, so a process still running 1.6.0's code stops.)
inline constexpr std::size_t reservation_file_size = 64;
std::array<char, reservation_file_size> reservation_record(std::int64_t unix_ms) noexcept;

struct ReadReservation {
    enum class Outcome {
        none,         // an empty file: nothing reserved
        reserved,     // no ID of `unix_ms` or later has been handed out
        ticket_word,  // 1.6.0's form: the same, from its last ticket (processes may still be counting on)
        malformed,
    };
    Outcome outcome;
    std::int64_t unix_ms = 0;
};
ReadReservation read_reservation_record(std::string_view bytes) noexcept;

// The ID of a ticket and a node (below 2^node_bits) in a layout whose fields are node_then_counter.
constexpr std::int64_t compose(std::uint64_t ticket, std::uint32_t node, const Layout& layout) noexcept {
    const std::uint64_t counter_mask = (std::uint64_t{1} << layout.counter_bits) - 1;
    return static_cast<std::int64_t>((ticket >> layout.counter_bits) << layout.low_bits() |
                                     std::uint64_t{node} << layout.counter_bits | (ticket & counter_mask));
}

}  // namespace idcodec::snowflake
