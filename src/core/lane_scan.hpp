// The search at the heart of the windowed chunkers (FastCDC's Gear, restic's Rabin): the first byte after which a
// rolling state passes a test. Each step waits on the one before, so one chain of steps leaves most of the CPU
// idle; but these states depend only on the last few bytes, so a stretch is cut into four parts hashed side by
// side, each part's lane warmed up on the bytes just before it, and the CPU overlaps the four chains.
#pragma once
#include "core/no_postgres.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace idcodec::cdc {

// What a rolling hash offers the scan:
//   static constexpr std::size_t warmup: bytes whose hashing from a fresh state gives the exact state
//   std::uint64_t grow(std::uint64_t state, const std::uint8_t* at): the state after adding *at, nothing leaving
//   std::uint64_t step(std::uint64_t state, const std::uint8_t* at): the state after sliding to *at (may read
//       the `warmup` bytes before at)
//   bool hit(std::uint64_t state): the test
template <class Hash>
concept LaneHash = requires(const Hash& hash, std::uint64_t state, const std::uint8_t* at) {
    { Hash::warmup } -> std::convertible_to<std::size_t>;
    { hash.grow(state, at) } -> std::same_as<std::uint64_t>;
    { hash.step(state, at) } -> std::same_as<std::uint64_t>;
    { hash.hit(state) } -> std::same_as<bool>;
};

namespace lane_scan {

inline constexpr std::size_t no_match = ~std::size_t{0};

// Lane k hit first, at step i of its part: an earlier lane may still hit later in its own part, and that position
// comes first. h0..h2 are the first lanes' states after step i. Rare, so kept out of the hot loop.
template <LaneHash Hash>
[[gnu::noinline, gnu::cold]] std::size_t resolve(const Hash& hash, const std::uint8_t* stretch, std::size_t stride,
                                                 std::size_t k, std::size_t i, std::uint64_t h0, std::uint64_t h1,
                                                 std::uint64_t h2) noexcept {
    const std::uint64_t states[] = {h0, h1, h2};
    for (std::size_t j = 0; j < k; ++j) {
        std::uint64_t state = states[j];
        for (std::size_t q = j * stride + i + 1; q < (j + 1) * stride; ++q) {
            state = hash.step(state, stretch + q);
            if (hash.hit(state)) return q;
        }
    }
    return k * stride + i;
}

// The first offset in stretch[0, 4 × Stride) whose state passes, or no_match; `state` is the state before the
// stretch, and after it on return.
template <std::size_t Stride, LaneHash Hash>
std::size_t scan_stretch(const Hash& hash, const std::uint8_t* stretch, std::uint64_t& state) noexcept {
    static_assert(Stride >= Hash::warmup, "a lane's warm-up must lie inside the stretch");
    const std::uint8_t* lane0 = stretch;
    const std::uint8_t* lane1 = stretch + Stride;
    const std::uint8_t* lane2 = stretch + 2 * Stride;
    const std::uint8_t* lane3 = stretch + 3 * Stride;
    std::uint64_t h0 = state, h1 = 0, h2 = 0, h3 = 0;
    for (std::ptrdiff_t q = -static_cast<std::ptrdiff_t>(Hash::warmup); q < 0; ++q) {  // interleaved like the scan
        h1 = hash.grow(h1, lane1 + q);
        h2 = hash.grow(h2, lane2 + q);
        h3 = hash.grow(h3, lane3 + q);
    }
#pragma GCC unroll 4
    for (const std::uint8_t* end = stretch + Stride; lane0 != end; ++lane0, ++lane1, ++lane2, ++lane3) {
        h0 = hash.step(h0, lane0);
        h1 = hash.step(h1, lane1);
        h2 = hash.step(h2, lane2);
        h3 = hash.step(h3, lane3);
        const auto i = static_cast<std::size_t>(lane0 - stretch);
        if (hash.hit(h0)) [[unlikely]]
            return i;
        if (hash.hit(h1)) [[unlikely]]
            return resolve(hash, stretch, Stride, 1, i, h0, h1, h2);
        if (hash.hit(h2)) [[unlikely]]
            return resolve(hash, stretch, Stride, 2, i, h0, h1, h2);
        if (hash.hit(h3)) [[unlikely]]
            return resolve(hash, stretch, Stride, 3, i, h0, h1, h2);
    }
    state = h3;
    return no_match;
}

// Scans stretches of the widest stride that fits, then halves it; returns the end of the part scanned so far
// (the hit if `found`).
template <std::size_t Stride, std::size_t MinStride, LaneHash Hash>
std::size_t scan_stretches(const Hash& hash, const std::uint8_t* data, std::size_t p, std::size_t hi,
                           std::uint64_t& state, bool& found) noexcept {
    while (hi - p >= 4 * Stride) {
        const std::size_t match = scan_stretch<Stride>(hash, data + p, state);
        if (match != no_match) {
            found = true;
            return p + match;
        }
        p += 4 * Stride;
    }
    if constexpr (Stride > MinStride)
        return scan_stretches<Stride / 2, MinStride>(hash, data, p, hi, state, found);
    else
        return p;
}

}  // namespace lane_scan

// The first p in [lo, hi) whose state passes, or hi if none does: the same as stepping byte by byte from `state`
// (the state before lo) and testing after each byte. The caller answers for what step() reads before lo: those
// bytes must be readable, and `state` must be their hash (restic's window reads 64 bytes back, which min_size >= 64
// guarantees). Stretches are 4 × 1024 bytes down to 4 × 128, what is left plainly: for the Gear hash 1024 beat
// 512, 2048 and 4096 (test/bench/fastcdc_bench.cpp); Rabin uses the same geometry.
template <LaneHash Hash>
std::size_t find_first_hit(const Hash& hash, const std::uint8_t* data, std::size_t lo, std::size_t hi,
                           std::uint64_t state) noexcept {
    if (lo >= hi) return hi;
    bool found = false;
    std::size_t p = lane_scan::scan_stretches<1024, 128>(hash, data, lo, hi, state, found);
    if (found) return p;
    for (; p < hi; ++p) {
        state = hash.step(state, data + p);
        if (hash.hit(state)) return p;
    }
    return hi;
}

}  // namespace idcodec::cdc
