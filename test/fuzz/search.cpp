// libFuzzer target: chunker and rolling-hash settings as SQL passes them (any name, sizes, seed, window), Rabin-Karp
// search against a plain scan, and winnowing with arbitrary k and w.
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/chunking/cdc.hpp"
#include "core/common/error.hpp"
#include "core/common/rabin_karp.hpp"
#include "core/search/search.hpp"
#include "core/search/winnow.hpp"

#include "fuzz_input.hpp"

using namespace idcodec;
using idcodec::fuzz::read_numbers;
using idcodec::fuzz::take_field;

namespace {

std::span<const std::uint8_t> bytes(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// An int argument as SQL passes it: any 32-bit value, negative ones included.
std::int64_t as_int(std::uint64_t number) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(number)); }

// Settings read from the input's first field; anything goes, as from SQL.
void try_settings(std::string_view name, std::string_view numbers_field, std::string_view data) {
    const std::vector<std::uint64_t> n = read_numbers(numbers_field, 5);
    const auto at = [&](std::size_t i) { return i < n.size() ? n[i] : 0; };
    try {
        const cdc::ChunkerArguments arguments{as_int(at(0)), as_int(at(1)), as_int(at(2)),
                                              static_cast<std::int64_t>(at(3)),
                                              at(4) == 0 ? std::nullopt : std::optional(as_int(at(4)))};
        const auto chunker = cdc::make_chunker(name, arguments);
        std::size_t start = 0;
        while (start < data.size()) {  // every cut is inside the data and moves forward
            const cdc::Cut cut = chunker->cut(bytes(data).subspan(start), true);
            if (cut.length == 0 || cut.length > data.size() - start) __builtin_trap();
            start += cut.length;
        }
    } catch (const Error&) {
    }
    try {
        cdc::make_rolling_hash(name, as_int(at(1)), static_cast<std::int64_t>(at(3)));  // for the checks alone
    } catch (const Error&) {
    }
    try {
        const std::size_t window = at(0) % 5000;
        const auto seed = static_cast<std::int64_t>(at(3));
        const auto hash = cdc::make_rolling_hash(name, static_cast<std::int64_t>(window), seed);
        if (window <= data.size()) {
            std::uint64_t rolled = hash->start(bytes(data).first(window));
            for (std::size_t i = window; i < data.size(); ++i) {
                rolled = hash->roll(static_cast<std::uint8_t>(data[i - window]), static_cast<std::uint8_t>(data[i]));
                // the same as hashing that window afresh
                const auto fresh = cdc::make_rolling_hash(name, static_cast<std::int64_t>(window), seed);
                if (fresh->start(bytes(data).subspan(i - window + 1, window)) != rolled) __builtin_trap();
                if (i > window + 64) break;
            }
        }
    } catch (const Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string_view name = take_field(input);
    const std::string_view numbers = take_field(input);
    const std::string_view needles_field = take_field(input);
    const std::string_view haystack = input;
    try_settings(name, numbers, haystack.substr(0, 4096));

    // Rabin-Karp search: exactly the matches of a plain scan, in order.
    std::vector<std::string_view> needles;
    for (std::string_view rest = needles_field; !rest.empty() && needles.size() < 8;) {
        const std::size_t end = rest.find('\n');
        needles.push_back(rest.substr(0, end));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    std::vector<std::span<const std::uint8_t>> spans;
    for (const std::string_view needle : needles) spans.push_back(bytes(needle));
    search::RabinKarpSearch finder(spans);
    std::vector<search::Match> found;
    for (std::size_t from = 0; from <= haystack.size();) from = finder.find(bytes(haystack), from, 7, found);
    std::vector<search::Match> expected;
    for (std::size_t offset = 0; offset <= haystack.size(); ++offset)
        for (std::size_t i = 0; i < needles.size(); ++i)
            if (haystack.substr(offset).starts_with(needles[i])) expected.push_back({offset, i});
    if (found != expected) __builtin_trap();

    // Winnowing: any k and w either fails cleanly or gives hashes of k-grams.
    const std::vector<std::uint64_t> kw = read_numbers(numbers, 2);
    try {
        const auto k = static_cast<std::int64_t>(kw.empty() ? 3 : kw[0] % 20) - 1;
        const auto w = static_cast<std::int64_t>(kw.size() < 2 ? 4 : kw[1] % 20) - 1;
        const auto fingerprints = search::winnow(haystack, k, w);
        for (const std::uint64_t f : fingerprints)
            if (f >= rabin_karp_modulus) __builtin_trap();
    } catch (const Error&) {
    }
    return 0;
}
