// Snowflake IDs: 64-bit integers whose high bits count time units since an epoch and whose low bits name the node
// that made them and count the IDs it made in that unit. The layouts in use differ in epoch, unit, widths and the
// order of the low fields; decoding reads any of them, generation makes the pgEdge snowflake 2.x layout.
#pragma once
#include "core/common/no_postgres.hpp"

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

    constexpr int low_bits() const noexcept { return node_bits + counter_bits; }
    // A non-negative 64-bit integer has 63 bits; the time part has those above the low fields.
    constexpr int time_bits() const noexcept { return 63 - low_bits(); }
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

// The parts of a non-negative ID.
std::uint64_t time_units(std::int64_t id, const Layout& layout) noexcept;
std::uint32_t node(std::int64_t id, const Layout& layout) noexcept;
std::uint32_t counter(std::int64_t id, const Layout& layout) noexcept;

// The start of the ID's time unit in microseconds since 1970; nothing when that overflows 64 bits (a custom layout
// with a long unit or a far epoch).
std::optional<std::int64_t> unix_us(std::int64_t id, const Layout& layout) noexcept;

// The least ID of the time unit holding `unix_us` (all its low bits 0); nothing before the epoch or past the last
// unit the time part can count.
std::optional<std::int64_t> least_id(std::int64_t unix_us, const Layout& layout) noexcept;

// Generation shares one 64-bit word among every process of a node: the last ticket handed out, a ticket being the
// time part above the counter (time << counter_bits | counter). A new ticket is the clock's first ticket when the
// clock is past the last one, else the last one plus 1: the counter runs on within a unit, and into the following
// units when one unit's counter is spent or the clock has stepped back (borrowing from the future as pgEdge does),
// so tickets never repeat and only increase whatever the clock does.
class TicketCounter {
public:
    static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free, "tickets are shared between processes");

    explicit TicketCounter(std::uint64_t& shared_last) noexcept : last_(shared_last) {}

    // The next ticket at a clock reading of `now_units` since the layout's epoch; nothing, and nothing taken, when
    // that ticket's time part would need more than the layout's time bits, or the shared word holds no ticket of
    // the layout (holds_ticket).
    std::optional<std::uint64_t> take(std::uint64_t now_units, const Layout& layout) noexcept {
        std::uint64_t seen = last_.load(std::memory_order_relaxed);
        const std::uint64_t at_clock = now_units << layout.counter_bits;
        const std::uint64_t end = std::uint64_t{1} << (layout.time_bits() + layout.counter_bits);
        for (;;) {
            if (seen >= end) return std::nullopt;  // no ticket: the word was written by something else
            const std::uint64_t next = at_clock > seen ? at_clock : seen + 1;
            if (next >= end || now_units >= (std::uint64_t{1} << layout.time_bits())) return std::nullopt;
            if (last_.compare_exchange_weak(seen, next, std::memory_order_acq_rel, std::memory_order_relaxed))
                return next;
        }
    }

private:
    std::atomic_ref<std::uint64_t> last_;
};

// Whether a word could be a ticket of the layout: its time part within the layout's time bits.
constexpr bool holds_ticket(std::uint64_t word, const Layout& layout) noexcept {
    return word >> layout.counter_bits >> layout.time_bits() == 0;
}

// The ID of a ticket and a node (below 2^node_bits) in a layout whose fields are node_then_counter.
constexpr std::int64_t compose(std::uint64_t ticket, std::uint32_t node, const Layout& layout) noexcept {
    const std::uint64_t counter_mask = (std::uint64_t{1} << layout.counter_bits) - 1;
    return static_cast<std::int64_t>((ticket >> layout.counter_bits) << layout.low_bits() |
                                     std::uint64_t{node} << layout.counter_bits | (ticket & counter_mask));
}

}  // namespace idcodec::snowflake
