#include <algorithm>
#include <deque>
#include <string>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/rabin_karp.hpp"
#include "core/common/utf8.hpp"
#include "core/search/winnow.hpp"

namespace idcodec::search {

std::vector<std::uint64_t> winnow(std::string_view utf8, std::int64_t k_argument, std::int64_t w_argument,
                                  StopToken stop, std::size_t max_fingerprints) {
    const auto in_range = [](std::int64_t v) { return v >= 1 && v <= static_cast<std::int64_t>(max_winnow_parameter); };
    if (!in_range(k_argument) || !in_range(w_argument))
        throw Error(ErrorKind::invalid_parameter,
                    "winnow needs k and w between 1 and " + std::to_string(max_winnow_parameter) +
                        " (got k = " + std::to_string(k_argument) + ", w = " + std::to_string(w_argument) + ")");
    const auto k = static_cast<std::size_t>(k_argument);
    const auto w = static_cast<std::size_t>(w_argument);
    std::vector<std::uint64_t> fingerprints;
    // Winnowing selects about 2 / (w + 1) of the k-grams of random text. Reserving that (plus a little) up front
    // spares the doublings of a growing vector, which on a large text touched twice the memory of the result and
    // spent much of the time having the kernel clear fresh pages.
    fingerprints.reserve(std::min(max_fingerprints, utf8.size() / (w + 1) * 2 + utf8.size() / 64 + 16));
    // The last k code points (for the symbol leaving the k-gram), and the window's candidates as (hash, k-gram
    // index) with hashes increasing strictly from front to back: the front is the rightmost minimum, because an
    // equal or larger hash is dropped when a newer one arrives.
    std::vector<char32_t> recent(k);
    std::deque<std::pair<std::uint64_t, std::size_t>> candidates;
    RabinKarp hasher(k);
    std::uint64_t hash = 0;
    std::size_t symbols = 0;
    std::size_t last_selected = SIZE_MAX;
    const auto select_front = [&] {
        if (candidates.front().second != last_selected) {
            if (fingerprints.size() == max_fingerprints)
                throw Error(ErrorKind::program_limit,
                            "winnow would return more than " + std::to_string(max_fingerprints) + " fingerprints");
            last_selected = candidates.front().second;
            fingerprints.push_back(candidates.front().first);
        }
    };
    for (std::size_t pos = 0; pos < utf8.size(); ++symbols) {
        if ((symbols & 0xFFFF) == 0) stop.poll();
        char32_t symbol = utf8::next(utf8, pos);
        if (symbol == utf8::invalid) symbol = U'\uFFFD';
        const char32_t leaving = recent[symbols % k];
        recent[symbols % k] = symbol;
        if (symbols + 1 < k) {
            hash = hasher.roll(0, symbol);  // still filling: nothing leaves
            continue;
        }
        hash = symbols + 1 == k ? hasher.roll(0, symbol) : hasher.roll(leaving, symbol);
        const std::size_t gram = symbols + 1 - k;
        while (!candidates.empty() && candidates.back().first >= hash) candidates.pop_back();
        candidates.emplace_back(hash, gram);
        if (candidates.front().second + w <= gram) candidates.pop_front();
        if (gram + 1 >= w) select_front();
    }
    // Fewer k-grams than w: they form one window.
    if (symbols >= k && symbols + 1 - k < w) select_front();
    return fingerprints;
}

}  // namespace idcodec::search
