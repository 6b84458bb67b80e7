// The FastCDC family, byte-exact with fastcdc-rs 4.0.1, and the Gear rolling hash it is built on.
//
// "fastcdc"     = fastcdc_rs::v2020::FastCDC::with_level_and_seed (normalization level 1 and seed 0 by default)
// "fastcdc2016" = fastcdc_rs::v2016::FastCDC::new (normalization level 1)
// "ronomon"     = fastcdc_rs::ronomon::FastCDC::new
//
// Each cut() returns the chunk length and the hash the reference reports for that chunk. Notes on the reference:
// - v2020 and v2016 cut *before* the byte whose hash matched (that byte starts the next chunk); ronomon cuts after
//   it. The reported hash is the Gear state after that byte.
// - v2020 rolls two bytes per step with a left-shifted table, so at an even offset its state (and reported hash)
//   is the Gear hash shifted left by one bit; its first hashed byte is min_size rounded down to even, and with an
//   odd chunk length the last byte is never hashed.
// - A chunk of at most min_size bytes (only the last one) reports 0, as does a chunk where no byte was hashed.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/chunking/chunker.hpp"

namespace idcodec::cdc {

// fastcdc-rs's own bounds (v2020 and v2016 share them; ronomon has wider ones).
struct SizeBounds {
    std::size_t min_lo, min_hi, avg_lo, avg_hi, max_lo, max_hi;
};
inline constexpr SizeBounds fastcdc_bounds{64, 1'048'576, 256, 4'194'304, 1024, 16'777'216};
inline constexpr SizeBounds ronomon_bounds{64, 67'108'864, 256, 268'435'456, 1024, 1'073'741'824};

// The normalization levels of v2020: the masks are those of avg_size with `level` bits more before it and fewer after.
inline constexpr int max_normalization = 3;

// fastcdc-rs's GEAR table (the high 8 bytes of MD5 digests) and the v2016/v2020 MASKS by rounded log2 of a size.
std::span<const std::uint64_t, 256> gear_table() noexcept;
std::span<const std::uint64_t, 26> fastcdc_masks() noexcept;

// fastcdc-rs's logarithm2: log2 rounded to nearest, through the C library like Rust's f64::log2().round().
unsigned rounded_log2(std::size_t value) noexcept;

// Gear: h = (h << 1) + GEAR[b] (u64, wrapping) over the window's bytes, the steps of GearHash. A window of 64 bytes
// or more is the plain rolling state (older bytes have shifted out); a shorter one subtracts GEAR[out] << window
// when sliding, so the hash always equals a fresh computation over exactly the window.
struct GearSteps {
    explicit GearSteps(std::size_t window) : out_shift(window < 64 ? static_cast<unsigned>(window) : 64) {}

    std::uint64_t start(std::span<const std::uint8_t> window) const noexcept;
    std::uint64_t roll(std::uint64_t hash, std::uint8_t out, std::uint8_t in) const noexcept;

    unsigned out_shift;  // where the leaving byte sits; 64 = it has already shifted out
};

using GearHash = WindowHash<GearSteps>;

// "fastcdc", "fastcdc2016" or "ronomon". Throws Error(invalid_parameter), naming the argument and the rule, for
// another name, sizes outside the reference's bounds, min_size > avg_size > max_size out of order, a
// window_size other than 0 or 64 (the Gear hash sees 64 bytes; ronomon's 32), or (v2020) a normalization level
// outside 0..3. v2020 takes any seed; fastcdc2016 and ronomon ignore seed and level here: the factory
// (make_chunker) refuses a seed or level they have no use for.
std::unique_ptr<Chunker> make_fastcdc(std::string_view algorithm, const ChunkerSettings& settings);

}  // namespace idcodec::cdc
