// libFuzzer target: the snowflake decoders under any custom layout. A layout the checks accept decodes every ID into
// parts that compose it again; the least ID of the time an ID decodes to is that ID with its low bits cleared; the
// ticket counter never goes back, whatever clock readings it is given.
#include <cstdint>
#include <string_view>

#include "core/common/error.hpp"
#include "core/ids/snowflake.hpp"

#include "fuzz_input.hpp"

using namespace idcodec::snowflake;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto numbers = idcodec::fuzz::read_numbers(std::string_view(reinterpret_cast<const char*>(data), size), 16);
    if (numbers.size() < 4) return 0;
    Layout layout;
    try {
        layout = custom_layout(static_cast<std::int64_t>(numbers[0]), static_cast<std::int64_t>(numbers[1]),
                               static_cast<int>(numbers[2] % 40), static_cast<int>(numbers[2] / 40 % 40));
    } catch (const idcodec::Error&) {
        return 0;
    }
    for (std::size_t i = 3; i < numbers.size(); ++i) {
        const auto id = static_cast<std::int64_t>(numbers[i] >> 1);
        const std::uint64_t rebuilt = time_units(id, layout) << layout.low_bits() |
                                      std::uint64_t{node(id, layout)} << layout.counter_bits | counter(id, layout);
        if (rebuilt != static_cast<std::uint64_t>(id)) __builtin_trap();
        if (const auto us = unix_us(id, layout)) {
            const auto least = least_id(*us, layout);
            if (!least || static_cast<std::uint64_t>(*least) != time_units(id, layout) << layout.low_bits())
                __builtin_trap();
        }
    }
    std::uint64_t shared = 0, reserved = std::uint64_t{1} << 42, last = 0;
    TicketCounter tickets(shared, reserved);
    for (std::size_t i = 3; i < numbers.size(); ++i) {
        const std::uint64_t now = numbers[i] % (std::uint64_t{1} << 42);
        const auto take = tickets.take(now, pgedge, clock_wait_limit_ms, reservation_ms);
        if (take.outcome != TicketCounter::Take::Outcome::taken) continue;
        if ((take.ticket <= last && last != 0) || take.ticket >> pgedge.counter_bits != now) __builtin_trap();
        last = take.ticket;
    }
    return 0;
}
