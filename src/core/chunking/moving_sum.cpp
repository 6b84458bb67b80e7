#include <algorithm>

#include "core/chunking/moving_sum.hpp"

namespace idcodec::cdc {

namespace {

class MovingSumChunker final : public BoundedChunker<MovingSumChunker> {
public:
    explicit MovingSumChunker(const ChunkerSettings& settings)
        : BoundedChunker(settings.max_size),
          settings_(settings),
          window_(settings.window_size == 0 ? 4096 : settings.window_size) {}

    Cut cut(std::span<const std::uint8_t> data, bool) const override {
        const std::size_t limit = std::min(data.size(), max_size_);
        const std::size_t first = std::max(settings_.min_size, window_);
        if (limit < first) return {limit, 0};
        std::uint64_t sum = 0;
        for (std::size_t i = first - window_; i < first; ++i) sum += data[i];
        for (std::size_t end = first;; ++end) {  // `sum` covers data[end - window_, end)
            if (sum % settings_.avg_size == 0) return {end, sum};
            if (end == limit) return {limit, sum};
            sum += data[end];
            sum -= data[end - window_];
        }
    }

private:
    ChunkerSettings settings_;
    std::size_t window_;
};

}  // namespace

std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings) {
    return std::make_unique<MovingSumChunker>(settings);
}

}  // namespace idcodec::cdc
