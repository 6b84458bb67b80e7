// The content-defined chunkers and rolling hashes by name, with the settings checks common to all of them.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "core/chunking/chunker.hpp"

namespace idcodec::cdc {

// Refused beyond this chunk size: a chunker holds up to lookahead() bytes at a time.
inline constexpr std::size_t max_chunk_size = std::size_t{64} << 20;

// A chunker's settings as cdc_chunks takes them, before any check.
struct ChunkerArguments {
    std::int64_t min_size;
    std::int64_t avg_size;
    std::int64_t max_size;
    std::int64_t seed = 0;                                   // as bits: a negative seed is a large unsigned one
    std::optional<std::int64_t> window_size = std::nullopt;  // none: the algorithm's own
    std::int32_t normalization = 1;                          // FastCDC v2020's level; the others have only 1
};

// "fastcdc", "fastcdc2016", "ronomon", "rabin", "buzhash", "moving_sum". Throws Error(invalid_parameter) for an
// unknown name or settings the algorithm does not accept.
std::unique_ptr<Chunker> make_chunker(std::string_view algorithm, const ChunkerArguments& arguments);

// "rabin_karp", "rabin", "buzhash", "gear", "moving_sum"; the window is 1 .. max_window_size bytes.
std::unique_ptr<RollingHash> make_rolling_hash(std::string_view algorithm, std::int64_t window, std::int64_t seed);

}  // namespace idcodec::cdc
