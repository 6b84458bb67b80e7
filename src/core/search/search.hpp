// Substring search with Rabin-Karp rolling hashes (rabin_karp_find).
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/common/stop_token.hpp"

namespace idcodec::search {

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

}  // namespace idcodec::search
