// gzip --rsyncable's moving sum: the rolling hash and the chunker built on it.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/chunking/chunker.hpp"

namespace idcodec::cdc {

// The sum of the window's bytes, as gzip --rsyncable keeps it.
struct MovingSumSteps {
    explicit MovingSumSteps(std::size_t) {}

    std::uint64_t start(std::span<const std::uint8_t> window) const noexcept {
        std::uint64_t sum = 0;
        for (const std::uint8_t byte : window) sum += byte;
        return sum;
    }
    std::uint64_t roll(std::uint64_t sum, std::uint8_t out, std::uint8_t in) const noexcept { return sum + in - out; }
};

using MovingSumHash = WindowHash<MovingSumSteps>;

// gzip --rsyncable's rule, per chunk: a chunk ends after a byte where the sum of the last `window` bytes of the
// chunk is a multiple of avg_size (gzip: both 4096), once the chunk holds at least max(min_size, window) bytes,
// and at max_size at the latest.
std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings);

}  // namespace idcodec::cdc
