// Rolling hashes that need no tables (Rabin-Karp, gzip's moving sum), the moving-sum chunker, and what is built on
// rolling hashes: Rabin-Karp substring search and winnowing fingerprints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "chunker.hpp"
#include "stop_token.hpp"

namespace idcodec::cdc {

// Polynomial hash modulo the Mersenne prime 2^61-1 with base 16777619, bytes as unsigned:
// hash(b_0 .. b_{w-1}) = sum b_i * base^(w-1-i) mod (2^61-1).
inline constexpr std::uint64_t rabin_karp_modulus = (std::uint64_t{1} << 61) - 1;
inline constexpr std::uint64_t rabin_karp_base = 16777619;

std::unique_ptr<RollingHash> make_rabin_karp_hash(std::size_t window);
// The sum of the window's bytes, as gzip --rsyncable keeps it.
std::unique_ptr<RollingHash> make_moving_sum_hash(std::size_t window);

// gzip --rsyncable's rule, per chunk: a chunk ends after a byte where the sum of the last `window` bytes of the
// chunk is a multiple of avg_size (gzip: both 4096), once the chunk holds at least max(min_size, window) bytes,
// and at max_size at the latest.
std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings);

struct Match {
    std::size_t offset;  // in bytes
    std::size_t needle;  // index into the needles
    bool operator==(const Match&) const = default;
};

// Every occurrence of each needle in a haystack, overlapping ones too, by offset and then needle index: one
// Rabin-Karp rolling hash per distinct needle length, candidates verified byte by byte. An empty needle occurs at
// every offset 0..haystack.size(). The needles' bytes must outlive the search.
class RabinKarpSearch {
public:
    explicit RabinKarpSearch(std::span<const std::span<const std::uint8_t>> needles);
    ~RabinKarpSearch();

    // Scans offsets from `from` on, appending to `matches` until `limit` matches were added or the haystack ends;
    // returns the offset to resume from (haystack.size() + 1 once done), so callers can emit matches in batches.
    std::size_t find(std::span<const std::uint8_t> haystack, std::size_t from, std::size_t limit,
                     std::vector<Match>& matches, StopToken stop = {});

private:
    struct Width;
    std::vector<std::span<const std::uint8_t>> needles_;
    std::vector<Width> widths_;
};

// Winnowing (Schleimer, Wilkerson and Aiken 2003): the Rabin-Karp hashes of every k-gram of the code points of
// `utf8` (invalid bytes count as U+FFFD), then in each window of w consecutive hashes the minimum (the rightmost
// one on ties), each selected position reported once, in order. Fewer than w k-grams form one window; fewer than
// k characters give nothing. Streams: memory is O(k + w) besides the result.
inline constexpr std::size_t max_winnow_parameter = std::size_t{1} << 20;
// Throws Error(invalid_parameter) unless 1 <= k, w <= max_winnow_parameter.
std::vector<std::uint64_t> winnow(std::string_view utf8, std::int64_t k, std::int64_t w, StopToken stop = {});

}  // namespace idcodec::cdc
