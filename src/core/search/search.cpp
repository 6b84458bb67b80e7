#include <algorithm>
#include <bit>
#include <unordered_map>

#include "core/common/rabin_karp.hpp"
#include "core/search/search.hpp"

namespace idcodec::search {

struct RabinKarpSearch::Width {
    std::size_t length;
    RabinKarp hash;
    std::unordered_multimap<std::uint64_t, std::size_t> needles;  // index by hash
    // One bit per hash value modulo its size, set for the needles' hashes: a clear bit rules an offset out without
    // a look into the table, so scanning costs the same for 10 needles of a length as for 10,000.
    std::vector<std::uint64_t> filter;

    void build_filter() {
        const std::size_t bits =
            std::bit_ceil(std::clamp<std::size_t>(32 * needles.size(), 1024, std::size_t{1} << 22));
        filter.assign(bits / 64, 0);
        for (const auto& [hash, index] : needles) filter[(hash & (bits - 1)) / 64] |= std::uint64_t{1} << (hash % 64);
    }
    bool may_hold(std::uint64_t hash) const noexcept {
        return (filter[(hash / 64) & (filter.size() - 1)] >> (hash % 64) & 1) != 0;
    }
};

RabinKarpSearch::RabinKarpSearch(std::span<const std::span<const std::uint8_t>> needles)
    : needles_(needles.begin(), needles.end()) {
    for (std::size_t i = 0; i < needles_.size(); ++i) {
        auto width = std::find_if(widths_.begin(), widths_.end(),
                                  [&](const Width& w) { return w.length == needles_[i].size(); });
        if (width == widths_.end())
            width = widths_.insert(widths_.end(), {needles_[i].size(), RabinKarp(needles_[i].size()), {}, {}});
        width->needles.emplace(RabinKarp(needles_[i].size()).start(needles_[i]), i);
    }
    for (Width& width : widths_) width.build_filter();
}

RabinKarpSearch::~RabinKarpSearch() = default;

std::size_t RabinKarpSearch::find(std::span<const std::uint8_t> haystack, std::size_t from, std::size_t limit,
                                  std::vector<Match>& matches, StopToken stop) {
    // Polls by work done, not by offsets: an offset costs one step per needle length plus its verifications.
    constexpr std::size_t poll_every = std::size_t{1} << 22;
    std::size_t work = 0;
    const std::size_t added_before = matches.size();
    for (std::size_t offset = from; offset <= haystack.size(); ++offset) {
        work += widths_.size() + 1;
        const std::size_t first_of_offset = matches.size();
        for (Width& width : widths_) {
            if (offset + width.length > haystack.size()) continue;
            const std::uint64_t hash = width.length == 0 ? 0  // the empty needle occurs everywhere
                                       : offset == from
                                           ? width.hash.start(haystack.subspan(offset, width.length))
                                           : width.hash.roll(haystack[offset - 1], haystack[offset + width.length - 1]);
            if (!width.may_hold(hash)) continue;
            const auto [begin, end] = width.needles.equal_range(hash);
            for (auto it = begin; it != end; ++it) {
                const auto& needle = needles_[it->second];
                work += needle.size();
                if (std::equal(needle.begin(), needle.end(), haystack.begin() + static_cast<std::ptrdiff_t>(offset)))
                    matches.push_back({offset, it->second});
            }
        }
        if (work >= poll_every) {
            stop.poll();
            work = 0;
        }
        if (matches.size() - first_of_offset > 1)
            std::sort(matches.begin() + static_cast<std::ptrdiff_t>(first_of_offset), matches.end(),
                      [](const Match& a, const Match& b) { return a.needle < b.needle; });
        if (matches.size() - added_before >= limit) return offset + 1;
    }
    return haystack.size() + 1;
}

}  // namespace idcodec::search
