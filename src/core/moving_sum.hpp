// gzip --rsyncable's moving sum: the rolling hash and the chunker built on it.
#pragma once
#include "core/no_postgres.hpp"

#include <cstddef>
#include <memory>

#include "core/chunker.hpp"

namespace idcodec::cdc {

// The sum of the window's bytes, as gzip --rsyncable keeps it.
std::unique_ptr<RollingHash> make_moving_sum_hash(std::size_t window);

// gzip --rsyncable's rule, per chunk: a chunk ends after a byte where the sum of the last `window` bytes of the
// chunk is a multiple of avg_size (gzip: both 4096), once the chunk holds at least max(min_size, window) bytes,
// and at max_size at the latest.
std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings);

}  // namespace idcodec::cdc
