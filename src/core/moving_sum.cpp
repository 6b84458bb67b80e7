#include <algorithm>

#include "core/moving_sum.hpp"

namespace idcodec::cdc {

namespace {

class MovingSumHash final : public RollingHash {
public:
    std::uint64_t start(std::span<const std::uint8_t> window) override {
        sum_ = 0;
        for (const std::uint8_t byte : window) sum_ += byte;
        return sum_;
    }
    std::uint64_t roll(std::uint8_t out, std::uint8_t in) override {
        sum_ += in;
        sum_ -= out;
        return sum_;
    }

private:
    std::uint64_t sum_ = 0;
};

class MovingSumChunker final : public Chunker {
public:
    explicit MovingSumChunker(const ChunkerSettings& settings)
        : settings_(settings), window_(settings.window_size == 0 ? 4096 : settings.window_size) {}

    Cut cut(std::span<const std::uint8_t> data, bool) const override {
        const std::size_t limit = std::min(data.size(), settings_.max_size);
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

    std::size_t lookahead() const noexcept override { return settings_.max_size; }
    std::size_t footprint() const noexcept override { return sizeof(*this); }

private:
    ChunkerSettings settings_;
    std::size_t window_;
};

}  // namespace

std::unique_ptr<RollingHash> make_moving_sum_hash(std::size_t) { return std::make_unique<MovingSumHash>(); }

std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings) {
    return std::make_unique<MovingSumChunker>(settings);
}

}  // namespace idcodec::cdc
