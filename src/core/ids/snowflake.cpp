#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "core/common/error.hpp"
#include "core/ids/snowflake.hpp"

namespace idcodec::snowflake {

namespace {

constexpr std::int64_t ms(std::int64_t unix_ms) { return unix_ms * us_per_ms; }

// Epochs and widths as each system publishes them.
constexpr std::array<std::pair<std::string_view, Layout>, 6> named{{
    {"pgedge", pgedge},
    // 41 bits of ms since 2010-11-04 01:42:54.657 UTC, 5 bits of datacenter and 5 of worker (the node), 12 of sequence
    {"twitter", {ms(1'288'834'974'657), us_per_ms, 10, 12, LowFields::node_then_counter}},
    // since 2015-01-01 UTC, 5 bits of worker and 5 of process (the node), 12 of increment
    {"discord", {ms(1'420'070'400'000), us_per_ms, 10, 12, LowFields::node_then_counter}},
    // 41 bits of ms since 2011-08-24 21:07:01.721 UTC, 13 bits of logical shard (the node), 10 of sequence: all 64
    // bits, so from 2046-06-27 17:00:49.497 UTC on its IDs are negative bigints
    {"instagram", {ms(1'314'220'021'721), us_per_ms, 13, 10, LowFields::node_then_counter, 64}},
    // 39 bits of 10 ms units since 2014-09-01 UTC, 8 bits of sequence, 16 of machine ID (the node)
    {"sonyflake", {ms(1'409'529'600'000), 10 * us_per_ms, 16, 8, LowFields::counter_then_node}},
    // 48 bits of ms since 1970 above 16 bits that mix a hash with a sequence
    {"mastodon", {0, us_per_ms, 0, 16, LowFields::unnamed}},
}};

constexpr std::uint64_t mask(int bits) noexcept {
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

constexpr std::string_view reservation_tag = "idcodec snowflake v2 ";

}  // namespace

std::optional<Layout> named_layout(std::string_view name) noexcept {
    for (const auto& [layout_name, layout] : named)
        if (layout_name == name) return layout;
    return std::nullopt;
}

Layout custom_layout(std::int64_t epoch_unix_us, std::int64_t unit_us, int node_bits, int counter_bits) {
    if (unit_us <= 0) throw Error(ErrorKind::invalid_parameter, "snowflake unit must be a positive interval");
    if (node_bits < 0 || node_bits > 31 || counter_bits < 0 || counter_bits > 31)
        throw Error(ErrorKind::invalid_parameter,
                    "snowflake node_bits and counter_bits must be between 0 and 31 (got " + std::to_string(node_bits) +
                        " and " + std::to_string(counter_bits) + ")");
    if (node_bits + counter_bits > 62)
        throw Error(ErrorKind::invalid_parameter,
                    "snowflake node_bits and counter_bits must leave at least 1 of the 63 bits for time (got " +
                        std::to_string(node_bits + counter_bits) + ")");
    return {epoch_unix_us, unit_us, node_bits, counter_bits, LowFields::node_then_counter};
}

std::uint64_t time_units(std::int64_t id, const Layout& layout) noexcept {
    return static_cast<std::uint64_t>(id) >> layout.low_bits();
}

std::uint32_t node(std::int64_t id, const Layout& layout) noexcept {
    const auto bits = static_cast<std::uint64_t>(id);
    const int shift = layout.fields == LowFields::counter_then_node ? 0 : layout.counter_bits;
    return static_cast<std::uint32_t>(bits >> shift & mask(layout.node_bits));
}

std::uint32_t counter(std::int64_t id, const Layout& layout) noexcept {
    const auto bits = static_cast<std::uint64_t>(id);
    const int shift = layout.fields == LowFields::counter_then_node ? layout.node_bits : 0;
    return static_cast<std::uint32_t>(bits >> shift & mask(layout.counter_bits));
}

std::optional<std::int64_t> unix_us(std::int64_t id, const Layout& layout) noexcept {
    std::int64_t since_epoch;
    std::int64_t result;
    if (__builtin_mul_overflow(static_cast<std::int64_t>(time_units(id, layout)), layout.unit_us, &since_epoch) ||
        __builtin_add_overflow(layout.epoch_unix_us, since_epoch, &result))
        return std::nullopt;
    return result;
}

std::optional<std::int64_t> least_id(std::int64_t unix_us, const Layout& layout) noexcept {
    std::int64_t since_epoch;
    if (__builtin_sub_overflow(unix_us, layout.epoch_unix_us, &since_epoch) || since_epoch < 0) return std::nullopt;
    const auto units = static_cast<std::uint64_t>(since_epoch / layout.unit_us);
    if (units > mask(layout.time_bits())) return std::nullopt;
    return static_cast<std::int64_t>(units << layout.low_bits());
}

std::array<char, reservation_file_size> reservation_record(std::int64_t unix_ms) noexcept {
    std::array<char, reservation_file_size> record;
    record.fill(' ');
    std::copy(reservation_tag.begin(), reservation_tag.end(), record.begin());
    char digits[20];
    std::size_t count = 0;
    for (auto rest = static_cast<std::uint64_t>(unix_ms); count == 0 || rest != 0; rest /= 10)
        digits[count++] = static_cast<char>('0' + rest % 10);
    auto at = record.begin() + reservation_tag.size();
    while (count > 0) *at++ = digits[--count];
    *at = '\n';
    return record;
}

ReadReservation read_reservation_record(std::string_view bytes) noexcept {
    using Outcome = ReadReservation::Outcome;
    if (bytes.empty()) return {Outcome::none};
    if (bytes.size() != reservation_file_size) return {Outcome::malformed};
    if (bytes.starts_with(reservation_tag)) {
        std::uint64_t unix_ms = 0;
        std::size_t at = reservation_tag.size();
        const std::size_t first_digit = at;
        for (; at < bytes.size() && bytes[at] >= '0' && bytes[at] <= '9'; ++at) {
            if (at - first_digit == 18) return {Outcome::malformed};
            unix_ms = unix_ms * 10 + static_cast<std::uint64_t>(bytes[at] - '0');
        }
        if (at == first_digit || at == bytes.size() || bytes[at] != '\n') return {Outcome::malformed};
        for (++at; at < bytes.size(); ++at)
            if (bytes[at] != ' ') return {Outcome::malformed};
        return {Outcome::reserved, static_cast<std::int64_t>(unix_ms)};
    }
    // 1.6.0's form: its last ticket, in the pgEdge layout, in the first 8 bytes (native byte order)
    std::uint64_t ticket;
    std::memcpy(&ticket, bytes.data(), sizeof ticket);
    if (ticket >> pgedge.counter_bits >> pgedge.time_bits() != 0) return {Outcome::malformed};
    const auto unix_ms = pgedge.epoch_unix_us / us_per_ms + static_cast<std::int64_t>(ticket >> pgedge.counter_bits);
    return {Outcome::ticket_word, unix_ms + 1};
}

}  // namespace idcodec::snowflake
