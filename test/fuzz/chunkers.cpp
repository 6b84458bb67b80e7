// libFuzzer target: every chunker on arbitrary data and settings. Cuts must tile the data, respect max_size, and
// not depend on how much lookahead the caller provides.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/chunking/cdc.hpp"
#include "core/common/error.hpp"

using namespace idcodec::cdc;

namespace {

std::vector<Cut> chunk(const Chunker& chunker, std::span<const std::uint8_t> data, std::size_t lookahead) {
    std::vector<Cut> cuts;
    for (std::size_t start = 0; start < data.size();) {
        const std::size_t available = std::min(data.size() - start, lookahead);
        const bool final = start + available == data.size();
        const Cut cut = chunker.cut(data.subspan(start, available), final);
        if (cut.length == 0 || cut.length > available) __builtin_trap();
        cuts.push_back(cut);
        start += cut.length;
    }
    return cuts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 8) return 0;
    static constexpr std::string_view algorithms[] = {"fastcdc", "fastcdc2016", "ronomon",
                                                      "rabin",   "buzhash",     "moving_sum"};
    const std::string_view algorithm = algorithms[data[0] % std::size(algorithms)];
    const std::size_t min_size = std::size_t{1} << (data[1] % 12);
    const std::size_t avg_size = min_size << (data[2] % 4);
    const std::size_t max_size = avg_size << (data[3] % 4);
    const std::size_t window = data[4] % 3 == 0 ? 0 : 1 + data[5] % 64;
    const std::uint64_t seed = data[6] % 2 == 0 ? 0 : data[7];
    const std::span<const std::uint8_t> content(data + 8, size - 8);
    try {
        const ChunkerArguments arguments{static_cast<std::int64_t>(min_size), static_cast<std::int64_t>(avg_size),
                                         static_cast<std::int64_t>(max_size), static_cast<std::int64_t>(seed),
                                         window == 0 ? std::nullopt : std::optional<std::int64_t>(window)};
        const auto chunker = make_chunker(algorithm, arguments);
        const auto whole = chunk(*chunker, content, content.size());
        const auto streamed = chunk(*chunker, content, chunker->lookahead());
        if (whole.size() != streamed.size()) __builtin_trap();
        for (std::size_t i = 0; i < whole.size(); ++i) {
            if (whole[i].length != streamed[i].length || whole[i].hash != streamed[i].hash) __builtin_trap();
            if (whole[i].length > max_size) __builtin_trap();
        }
    } catch (const idcodec::Error&) {
        // settings the algorithm rejects
    }
    return 0;
}
