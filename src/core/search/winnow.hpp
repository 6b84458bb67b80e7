// Winnowing fingerprints for near-duplicate search (winnow).
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/common/stop_token.hpp"

namespace idcodec::search {

// Winnowing (Schleimer, Wilkerson and Aiken 2003): the Rabin-Karp hashes of every k-gram of the code points of
// `utf8` (invalid bytes count as U+FFFD), then in each window of w consecutive hashes the minimum (the rightmost
// one on ties), each selected position reported once, in order. Fewer than w k-grams form one window; fewer than
// k characters give nothing. Streams: memory is O(k + w) besides the result, which holds at most max_fingerprints
// (the host's limit, so a text too large for one result is refused before its memory is spent).
inline constexpr std::size_t max_winnow_parameter = std::size_t{1} << 20;
// Throws Error(invalid_parameter) unless 1 <= k, w <= max_winnow_parameter, and Error(program_limit) once the
// result would exceed max_fingerprints.
std::vector<std::uint64_t> winnow(std::string_view utf8, std::int64_t k, std::int64_t w, StopToken stop = {},
                                  std::size_t max_fingerprints = SIZE_MAX);

}  // namespace idcodec::search
