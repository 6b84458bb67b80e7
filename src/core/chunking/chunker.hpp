// Content-defined chunking and rolling hashes: the interfaces every algorithm implements, and the frames they share.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/common/error.hpp"

namespace idcodec::cdc {

// Where a chunk ends, and the algorithm's hash at that point (its "cut hash"; 0 where it has none).
struct Cut {
    std::size_t length;
    std::uint64_t hash;
};

struct ChunkerSettings {
    std::size_t min_size;
    std::size_t avg_size;
    std::size_t max_size;
    std::uint64_t seed;
    std::size_t window_size;  // 0: the algorithm's own
    int normalization = 1;    // FastCDC v2020's level (the others have none)
};

// Every supported chunker decides a cut from the bytes of the chunk itself (each chunk starts afresh), so a caller
// can hand it the data in pieces: `data` starts at the chunk's first byte and holds at least lookahead() bytes,
// or, when `final`, every byte that is left (then the whole rest is cut if no earlier cut point is found).
class Chunker {
public:
    virtual ~Chunker() = default;

    virtual Cut cut(std::span<const std::uint8_t> data, bool final) const = 0;

    // Bytes from a chunk's start that cut() may need to look at (at least max_size).
    virtual std::size_t lookahead() const noexcept = 0;

    // The bytes this chunker holds, its tables included, for the bound on cached configurations.
    virtual std::size_t footprint() const noexcept = 0;
};

// What every chunker here shares: a chunk never exceeds max_size, so that is all it looks ahead, and its tables are
// inside the object, so its footprint is its size.
template <class Derived>
class BoundedChunker : public Chunker {
public:
    std::size_t lookahead() const noexcept final { return max_size_; }
    std::size_t footprint() const noexcept final { return sizeof(Derived); }

protected:
    explicit BoundedChunker(std::size_t max_size) : max_size_(max_size) {}

    std::size_t max_size_;
};

// A hash of the last `window` bytes that slides one byte at a time.
class RollingHash {
public:
    virtual ~RollingHash() = default;

    // The hash of the first window (window.size() is the window size given at construction).
    virtual std::uint64_t start(std::span<const std::uint8_t> window) = 0;

    // Slides the window one byte: `out` leaves it, `in` enters it; returns the new hash.
    virtual std::uint64_t roll(std::uint8_t out, std::uint8_t in) = 0;
};

inline constexpr std::size_t max_window_size = std::size_t{1} << 20;

// The one rule for a rolling hash's window: 1 to max_window_size bytes. Throws Error(invalid_parameter) otherwise.
inline void check_window_size(std::int64_t window) {
    if (window < 1 || window > static_cast<std::int64_t>(max_window_size))
        throw Error(ErrorKind::invalid_parameter, "rolling_hash window_size must be between 1 and " +
                                                      std::to_string(max_window_size) + " (got " +
                                                      std::to_string(window) + ")");
}

// A rolling hash made of an algorithm's two steps: Steps::start(window bytes) and Steps::roll(hash, out, in), each
// giving the new hash. Steps is constructed from the window size and the arguments that follow it.
template <class Steps>
class WindowHash final : public RollingHash {
public:
    template <class... Arguments>
    explicit WindowHash(std::size_t window, Arguments&&... arguments)
        : window_((check_window_size(static_cast<std::int64_t>(window)), window)),
          steps_(window, std::forward<Arguments>(arguments)...) {}

    std::uint64_t start(std::span<const std::uint8_t> window) override {
        if (window.size() != window_)
            throw Error(ErrorKind::invalid_parameter, "rolling hash start() needs exactly window_size bytes (" +
                                                          std::to_string(window_) + ", got " +
                                                          std::to_string(window.size()) + ")");
        hash_ = steps_.start(window);
        return hash_;
    }

    std::uint64_t roll(std::uint8_t out, std::uint8_t in) override {
        hash_ = steps_.roll(hash_, out, in);
        return hash_;
    }

private:
    std::size_t window_;
    Steps steps_;
    std::uint64_t hash_ = 0;
};

}  // namespace idcodec::cdc
