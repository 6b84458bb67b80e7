// Content-defined chunking and rolling hashes: the interfaces every algorithm implements.
#pragma once
#include "core/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

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

// A hash of the last `window` bytes that slides one byte at a time.
class RollingHash {
public:
    virtual ~RollingHash() = default;

    // The hash of the first window (window.size() is the window size given at construction).
    virtual std::uint64_t start(std::span<const std::uint8_t> window) = 0;

    // Slides the window one byte: `out` leaves it, `in` enters it; returns the new hash.
    virtual std::uint64_t roll(std::uint8_t out, std::uint8_t in) = 0;
};

}  // namespace idcodec::cdc
