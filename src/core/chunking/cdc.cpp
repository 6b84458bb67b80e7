#include <algorithm>
#include <iterator>
#include <string>

#include "core/chunking/buzhash.hpp"
#include "core/chunking/cdc.hpp"
#include "core/chunking/fastcdc.hpp"
#include "core/chunking/moving_sum.hpp"
#include "core/chunking/rabin.hpp"
#include "core/common/error.hpp"
#include "core/common/rabin_karp.hpp"
#include "core/common/utf8.hpp"

namespace idcodec::cdc {

namespace {

// The byte-wise rolling hash rolling_hash(..., 'rabin_karp') computes.
struct RabinKarpSteps {
    explicit RabinKarpSteps(std::size_t window) : state(window) {}

    std::uint64_t start(std::span<const std::uint8_t> window) { return state.start(window); }
    std::uint64_t roll(std::uint64_t, std::uint8_t out, std::uint8_t in) { return state.roll(out, in); }

    RabinKarp state;
};

using RabinKarpHash = WindowHash<RabinKarpSteps>;

[[noreturn]] void unknown(std::string_view function, std::string_view algorithm, std::string_view known) {
    throw Error(ErrorKind::invalid_parameter, std::string(function) + " algorithm must be one of " +
                                                  std::string(known) + " (got \"" +
                                                  std::string(utf8::clip(algorithm, quoted_text_bytes)) + "\")");
}

// The one rule for algorithms without a seed, chunkers and rolling hashes alike: a seed other than 0 is refused
// rather than ignored, so a caller cannot believe it changed the result.
void refuse_seed(std::string_view function, std::string_view algorithm, std::uint64_t seed) {
    if (seed != 0)
        throw Error(ErrorKind::invalid_parameter, std::string(function) + " " + std::string(algorithm) +
                                                      " takes no seed (got " +
                                                      std::to_string(static_cast<std::int64_t>(seed)) + ")");
}

// One size argument of cdc_chunks: at least 1 (a chunk of 0 bytes would never end the data, and avg_size is a
// divisor of some algorithms).
std::size_t size_argument(std::string_view name, std::int64_t value) {
    if (value < 1)
        throw Error(ErrorKind::invalid_parameter,
                    "cdc_chunks " + std::string(name) + " must be at least 1 (got " + std::to_string(value) + ")");
    return static_cast<std::size_t>(value);
}

}  // namespace

std::unique_ptr<Chunker> make_chunker(std::string_view algorithm, const ChunkerArguments& arguments) {
    const ChunkerSettings settings{size_argument("min_size", arguments.min_size),
                                   size_argument("avg_size", arguments.avg_size),
                                   size_argument("max_size", arguments.max_size),
                                   static_cast<std::uint64_t>(arguments.seed),
                                   arguments.window_size ? size_argument("window_size", *arguments.window_size) : 0,
                                   arguments.normalization};
    if (settings.min_size > settings.avg_size || settings.avg_size > settings.max_size)
        throw Error(ErrorKind::invalid_parameter,
                    "cdc_chunks sizes must satisfy min_size <= avg_size <= max_size (got " +
                        std::to_string(settings.min_size) + ", " + std::to_string(settings.avg_size) + ", " +
                        std::to_string(settings.max_size) + ")");
    if (settings.max_size > max_chunk_size)
        throw Error(ErrorKind::invalid_parameter, "cdc_chunks max_size must be at most " +
                                                      std::to_string(max_chunk_size) + " (got " +
                                                      std::to_string(settings.max_size) + ")");
    if (settings.window_size > max_window_size)
        throw Error(ErrorKind::invalid_parameter, "cdc_chunks window_size must be at most " +
                                                      std::to_string(max_window_size) + " (got " +
                                                      std::to_string(settings.window_size) + ")");
    if (algorithm == "fastcdc") return make_fastcdc(algorithm, settings);
    constexpr std::string_view others[] = {"fastcdc2016", "ronomon", "rabin", "buzhash", "moving_sum"};
    if (std::find(std::begin(others), std::end(others), algorithm) == std::end(others))
        unknown("cdc_chunks", algorithm, "fastcdc, fastcdc2016, ronomon, rabin, buzhash, moving_sum");
    if (settings.normalization != 1)
        throw Error(ErrorKind::invalid_parameter, "cdc_chunks " + std::string(algorithm) +
                                                      " has no normalization level, only fastcdc has (got " +
                                                      std::to_string(settings.normalization) + ")");
    if (algorithm == "rabin") return std::make_unique<RabinChunker>(settings);
    if (algorithm == "buzhash") return std::make_unique<BuzhashChunker>(settings);
    refuse_seed("cdc_chunks", algorithm, settings.seed);
    if (algorithm == "moving_sum") return make_moving_sum_chunker(settings);
    return make_fastcdc(algorithm, settings);
}

std::unique_ptr<RollingHash> make_rolling_hash(std::string_view algorithm, std::int64_t window_argument,
                                               std::int64_t seed_argument) {
    check_window_size(window_argument);
    const auto window = static_cast<std::size_t>(window_argument);
    const auto seed = static_cast<std::uint64_t>(seed_argument);
    const auto seedless = [&](std::string_view name) { refuse_seed("rolling_hash", name, seed); };
    if (algorithm == "rabin_karp") return seedless(algorithm), std::make_unique<RabinKarpHash>(window);
    if (algorithm == "rabin") return std::make_unique<RabinHash>(window, seed);
    if (algorithm == "buzhash") return std::make_unique<BuzhashHash>(window, seed);
    if (algorithm == "gear") return seedless(algorithm), std::make_unique<GearHash>(window);
    if (algorithm == "moving_sum") return seedless(algorithm), std::make_unique<MovingSumHash>(window);
    unknown("rolling_hash", algorithm, "rabin_karp, rabin, buzhash, gear, moving_sum");
}

}  // namespace idcodec::cdc
