// borg 1.2 buzhash (cyclic polynomial hash over a 256-entry table) and borg's buzhash chunker, byte-exact with
// borg 1.2.4's borg.chunker (src/borg/_chunker.c).
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/chunking/chunker.hpp"

namespace idcodec::cdc {

namespace buzhash {

using Table = std::array<std::uint32_t, 256>;

inline constexpr std::size_t default_window = 4095;  // borg's HASH_WINDOW_SIZE
// borg asserts max_size <= MAX_DATA_SIZE (20971479); the largest power of two under it.
inline constexpr std::size_t max_chunk_size = std::size_t{1} << 24;

// borg's table_base: the table for seed 0.
const Table& base_table() noexcept;

// borg's seed: a u32. Accepted: 0 .. 2^32-1, and (read as int64) -2^31 .. -1 as borg keeps chunk_seed as a signed
// 32-bit int; both are taken mod 2^32 as borg does (seed & 0xffffffff). Throws Error(invalid_parameter) otherwise.
std::uint32_t seed32(std::uint64_t seed);

// buzhash_init_table: table_base[i] XOR seed.
Table make_table(std::uint32_t seed) noexcept;

// borg's buzhash(data, len, h): XOR of rotl(h[data[j]], (len-1-j) mod 32). data must not be empty.
std::uint32_t hash(std::span<const std::uint8_t> data, const Table& table) noexcept;

// borg's buzhash_update: slides a `window`-byte window by one byte.
inline std::uint32_t update(std::uint32_t sum, std::uint8_t remove, std::uint8_t add, std::size_t window,
                            const Table& table) noexcept {
    return std::rotl(sum, 1) ^ std::rotl(table[remove], static_cast<int>(window & 0x1f)) ^ table[add];
}

}  // namespace buzhash

// borg's buzhash chunker. Settings: min_size = 2^chunk_min_exp, max_size = 2^chunk_max_exp (<= 2^24),
// avg_size = 2^hash_mask_bits, window_size (0: 4095), seed as buzhash::seed32; borg also needs
// min_size + window_size + 1 <= max_size. The hash window starts at the potential cut, so a chunk ends where the
// window [length, length + window) hashes to 0 under the mask.
// Cut.hash: the last buzhash value borg computed for the chunk: at a content cut, the window's hash (its low
// hash_mask_bits bits are 0); at a max_size or end-of-data cut, the hash of the window that ends there (borg does
// not test that one); 0 for a last chunk shorter than min_size + window_size + 1, which borg emits unhashed.
class BuzhashChunker final : public BoundedChunker<BuzhashChunker> {
public:
    explicit BuzhashChunker(const ChunkerSettings& settings);

    Cut cut(std::span<const std::uint8_t> data, bool final) const override;

private:
    std::size_t min_size_;
    std::size_t window_;
    std::uint32_t mask_;
    buzhash::Table table_;
    buzhash::Table leaving_;  // table_ rotated as a byte leaving the window is: by window_size mod 32
};

namespace buzhash {

// borg's buzhash of the last `window` bytes (1 .. max_window_size), with borg's seed handling: the steps of
// BuzhashHash.
struct HashSteps {
    HashSteps(std::size_t window, std::uint64_t seed) : window(window), table(make_table(seed32(seed))) {}

    std::uint64_t start(std::span<const std::uint8_t> bytes) const noexcept { return hash(bytes, table); }
    std::uint64_t roll(std::uint64_t sum, std::uint8_t out, std::uint8_t in) const noexcept {
        return update(static_cast<std::uint32_t>(sum), out, in, window, table);
    }

    std::size_t window;
    Table table;
};

}  // namespace buzhash

using BuzhashHash = WindowHash<buzhash::HashSteps>;

}  // namespace idcodec::cdc
