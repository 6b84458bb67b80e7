#include <algorithm>
#include <unordered_map>

#include "core/rabin_karp.hpp"
#include "core/search.hpp"

namespace idcodec::search {

using cdc::RabinKarp;

struct RabinKarpSearch::Width {
    std::size_t length;
    RabinKarp hash;
    std::unordered_multimap<std::uint64_t, std::size_t> needles;  // index by hash
};

RabinKarpSearch::RabinKarpSearch(std::span<const std::span<const std::uint8_t>> needles)
    : needles_(needles.begin(), needles.end()) {
    for (std::size_t i = 0; i < needles_.size(); ++i) {
        auto width = std::find_if(widths_.begin(), widths_.end(),
                                  [&](const Width& w) { return w.length == needles_[i].size(); });
        if (width == widths_.end())
            width = widths_.insert(widths_.end(), {needles_[i].size(), RabinKarp(needles_[i].size()), {}});
        width->needles.emplace(RabinKarp(needles_[i].size()).start(needles_[i]), i);
    }
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
        std::sort(matches.begin() + static_cast<std::ptrdiff_t>(first_of_offset), matches.end(),
                  [](const Match& a, const Match& b) { return a.needle < b.needle; });
        if (matches.size() - added_before >= limit) return offset + 1;
    }
    return haystack.size() + 1;
}

}  // namespace idcodec::search
