// The content-defined chunkers and rolling hashes by name, with the settings checks common to all of them.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "chunker.hpp"

namespace idcodec::cdc {

// Refused beyond this chunk size: a chunker holds up to lookahead() bytes at a time.
inline constexpr std::size_t max_chunk_size = std::size_t{64} << 20;
inline constexpr std::size_t max_window_size = std::size_t{1} << 20;

// "fastcdc", "fastcdc2016", "ronomon", "rabin", "buzhash", "moving_sum". Throws Error(invalid_parameter) for an
// unknown name or settings the algorithm does not accept.
std::unique_ptr<Chunker> make_chunker(std::string_view algorithm, const ChunkerSettings& settings);

// "rabin_karp", "rabin", "buzhash", "gear", "moving_sum".
std::unique_ptr<RollingHash> make_rolling_hash(std::string_view algorithm, std::size_t window, std::uint64_t seed);

}  // namespace idcodec::cdc
