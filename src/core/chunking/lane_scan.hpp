// The search at the heart of the windowed chunkers (FastCDC's Gear, restic's Rabin): the first byte after which a
// rolling state passes a test. Each step waits on the one before, so one chain of steps leaves most of the CPU
// idle; but these states depend only on the last few bytes, so a stretch is cut into four parts hashed side by
// side, each part's lane warmed up on the bytes just before it, and the CPU overlaps the four chains.
//
// Where the time goes, once the chains overlap: two loads per byte and lane (the byte, then its table entry) fill
// the load ports. So the fourth lane reads its bytes eight at a time and takes them out of a register; and the
// stretch after next is prefetched while this one is scanned, since four parts 1 KiB apart restart the hardware's
// stream prefetcher at every stretch (one stretch ahead was measurably too late for memory-resident data); a search
// asks for its first two stretches before it starts.
#pragma once
#include "core/common/no_postgres.hpp"

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace idcodec::cdc {

// What a rolling hash offers the scan:
//   static constexpr std::size_t warmup: bytes whose hashing from a fresh state gives the exact state
//   std::uint64_t grow(std::uint64_t state, const std::uint8_t* at): the state after adding *at, nothing leaving
//   std::uint64_t step(std::uint64_t state, std::uint8_t in, const std::uint8_t* at): the state after sliding to
//       the byte `in` (the value of *at), which may read the `warmup` bytes before at
//   bool hit(std::uint64_t state): the test
template <class Hash>
concept LaneHash = requires(const Hash& hash, std::uint64_t state, std::uint8_t in, const std::uint8_t* at) {
    { Hash::warmup } -> std::convertible_to<std::size_t>;
    { hash.grow(state, at) } -> std::same_as<std::uint64_t>;
    { hash.step(state, in, at) } -> std::same_as<std::uint64_t>;
    { hash.hit(state) } -> std::same_as<bool>;
};

namespace lane_scan {

inline constexpr std::size_t no_match = ~std::size_t{0};

template <LaneHash Hash>
std::uint64_t step_at(const Hash& hash, std::uint64_t state, const std::uint8_t* at) noexcept {
    return hash.step(state, *at, at);
}

// A later lane hit at step q of its part (`found`, with `state` its state there); the first K lanes, whose states
// after step q are h0..h2, may still hit later in their own parts, and such a position comes first. They go on side
// by side; when one of them hits, only the lanes before it still matter. Called once per cut at most, but it may
// run for most of a part, so it is not marked cold (which would compile it for size).
template <std::size_t K, LaneHash Hash>
[[gnu::noinline]] std::size_t settle(const Hash& hash, const std::uint8_t* stretch, std::size_t stride, std::size_t q,
                                     std::uint64_t h0, std::uint64_t h1, std::uint64_t h2, std::size_t found,
                                     std::uint64_t& state) noexcept {
    static_assert(K >= 1 && K <= 3);
    for (++q; q < stride; ++q) {
        h0 = step_at(hash, h0, stretch + q);
        if constexpr (K > 1) h1 = step_at(hash, h1, stretch + stride + q);
        if constexpr (K > 2) h2 = step_at(hash, h2, stretch + 2 * stride + q);
        if (hash.hit(h0)) {
            state = h0;
            return q;
        }
        if constexpr (K > 1) {
            if (hash.hit(h1)) {
                state = h1;
                return settle<1>(hash, stretch, stride, q, h0, 0, 0, stride + q, state);
            }
        }
        if constexpr (K > 2) {
            if (hash.hit(h2)) {
                state = h2;
                return settle<2>(hash, stretch, stride, q, h0, h1, 0, 2 * stride + q, state);
            }
        }
    }
    return found;
}

// Eight bytes, byte k of the data in bits 8k..8k+7.
inline std::uint64_t load_word(const std::uint8_t* at) noexcept {
    std::uint64_t word;
    std::memcpy(&word, at, sizeof word);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    return word;
}

// The first offset in stretch[0, 4 × Stride) whose state passes, or no_match; `state` is the state before the
// stretch, and on return the state at the match (or after the stretch).
template <std::size_t Stride, LaneHash Hash>
[[gnu::noinline]] std::size_t scan_stretch(const Hash& hash, const std::uint8_t* stretch,
                                           std::uint64_t& state) noexcept {
    static_assert(Stride >= Hash::warmup, "a lane's warm-up must lie inside the stretch");
    static_assert(Stride % 16 == 0, "blocks of 16 steps, two words of the fourth lane");
    std::uint64_t h0 = state, h1 = 0, h2 = 0, h3 = 0;
    for (std::ptrdiff_t q = -static_cast<std::ptrdiff_t>(Hash::warmup); q < 0; ++q) {  // interleaved like the scan
        h1 = hash.grow(h1, stretch + Stride + q);
        h2 = hash.grow(h2, stretch + 2 * Stride + q);
        h3 = hash.grow(h3, stretch + 3 * Stride + q);
    }
    const auto hit_at = [&](const std::uint8_t* block, std::size_t k) -> std::size_t {
        const auto q = static_cast<std::size_t>(block - stretch) + k;
        if (hash.hit(h0)) {
            state = h0;
            return q;
        }
        if (hash.hit(h1)) {
            state = h1;
            return settle<1>(hash, stretch, Stride, q, h0, 0, 0, Stride + q, state);
        }
        if (hash.hit(h2)) {
            state = h2;
            return settle<2>(hash, stretch, Stride, q, h0, h1, 0, 2 * Stride + q, state);
        }
        state = h3;
        return settle<3>(hash, stretch, Stride, q, h0, h1, h2, 3 * Stride + q, state);
    };
    const std::uint8_t* ahead = stretch + 8 * Stride;
    for (const std::uint8_t* block = stretch; block != stretch + Stride; block += 16, ahead += 64) {
        __builtin_prefetch(ahead);
#pragma GCC unroll 2
        for (std::size_t half = 0; half < 16; half += 8) {
            std::uint64_t word = load_word(block + half + 3 * Stride);
#pragma GCC unroll 8
            for (std::size_t k = 0; k < 8; ++k) {
                const std::uint8_t* at = block + half + k;
                h0 = step_at(hash, h0, at);
                h1 = step_at(hash, h1, at + Stride);
                h2 = step_at(hash, h2, at + 2 * Stride);
                // Two bytes per shift (x86 reads the second lowest byte of a register directly); the empty asm
                // keeps the compiler from turning the running shift back into one shift per byte.
                h3 = hash.step(h3, static_cast<std::uint8_t>(k % 2 == 0 ? word : word >> 8), at + 3 * Stride);
                if (k % 2 == 1) {
                    word >>= 16;
                    asm("" : "+r"(word));
                }
                if (hash.hit(h0) || hash.hit(h1) || hash.hit(h2) || hash.hit(h3)) [[unlikely]]
                    return hit_at(block, half + k);
            }
        }
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
// (the state before lo) and testing after each byte; `state` is then the state at p (after hi - 1 if none
// passed). The caller answers for what step() reads before lo: those bytes must be readable, and `state` must be
// their hash (restic's window reads 64 bytes back, which min_size >= 64 guarantees). Stretches are 4 × 1024 bytes
// down to 4 × 128, what is left plainly: for the Gear hash 1024 beat 512, 2048 and 4096
// (test/bench/fastcdc_bench.cpp); Rabin uses the same geometry.
template <LaneHash Hash>
std::size_t find_first_hit(const Hash& hash, const std::uint8_t* data, std::size_t lo, std::size_t hi,
                           std::uint64_t& state) noexcept {
    if (lo >= hi) return hi;
    bool found = false;
    // A stretch prefetches the one after next as it goes; a search's first two stretches are asked for here, at
    // once, since a chunker's search starts min_size bytes past its last cut, which no scan has read ahead.
    constexpr std::size_t stride = 1024;
    const std::size_t lead = std::min(hi, lo + 2 * 4 * stride);
    for (std::size_t q = lo; q < lead; q += 64) __builtin_prefetch(data + q);
    std::size_t p = lane_scan::scan_stretches<stride, 128>(hash, data, lo, hi, state, found);
    if (found) return p;
    for (; p < hi; ++p) {
        state = lane_scan::step_at(hash, state, data + p);
        if (hash.hit(state)) return p;
    }
    return hi;
}

}  // namespace idcodec::cdc
