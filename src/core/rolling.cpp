#include "rolling.hpp"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "error.hpp"
#include "utf8.hpp"

namespace idcodec::cdc {

namespace {

using u128 = unsigned __int128;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
    const u128 product = static_cast<u128>(a) * b;
    // 2^61 = 1 (mod 2^61-1): fold the high part onto the low part.
    std::uint64_t folded = static_cast<std::uint64_t>(product & rabin_karp_modulus) +
                           static_cast<std::uint64_t>(product >> 61);
    if (folded >= rabin_karp_modulus) folded -= rabin_karp_modulus;
    return folded;
}

std::uint64_t add_mod(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t sum = a + b;
    return sum >= rabin_karp_modulus ? sum - rabin_karp_modulus : sum;
}

std::uint64_t sub_mod(std::uint64_t a, std::uint64_t b) {
    return a >= b ? a - b : a + rabin_karp_modulus - b;
}

std::uint64_t power_mod(std::uint64_t base, std::size_t exponent) {
    std::uint64_t result = 1;
    for (; exponent > 0; exponent >>= 1, base = mul_mod(base, base))
        if (exponent & 1) result = mul_mod(result, base);
    return result;
}

// The Rabin-Karp state over symbols (bytes or code points), shared by the hash, the search and winnowing.
class RabinKarp {
public:
    explicit RabinKarp(std::size_t window) : leading_(power_mod(rabin_karp_base, window == 0 ? 0 : window - 1)) {}

    template <class Symbols>
    std::uint64_t start(const Symbols& window) {
        hash_ = 0;
        for (const auto symbol : window) hash_ = add_mod(mul_mod(hash_, rabin_karp_base), symbol % rabin_karp_modulus);
        return hash_;
    }

    std::uint64_t roll(std::uint64_t out, std::uint64_t in) {
        hash_ = add_mod(mul_mod(sub_mod(hash_, mul_mod(out % rabin_karp_modulus, leading_)), rabin_karp_base),
                        in % rabin_karp_modulus);
        return hash_;
    }

private:
    std::uint64_t leading_;  // base^(window-1): the weight of the byte leaving
    std::uint64_t hash_ = 0;
};

class RabinKarpHash final : public RollingHash {
public:
    explicit RabinKarpHash(std::size_t window) : state_(window) {}
    std::uint64_t start(std::span<const std::uint8_t> window) override { return state_.start(window); }
    std::uint64_t roll(std::uint8_t out, std::uint8_t in) override { return state_.roll(out, in); }

private:
    RabinKarp state_;
};

class MovingSumHash final : public RollingHash {
public:
    std::uint64_t start(std::span<const std::uint8_t> window) override {
        sum_ = 0;
        for (const std::uint8_t byte : window) sum_ += byte;
        return sum_;
    }
    std::uint64_t roll(std::uint8_t out, std::uint8_t in) override {
        sum_ += in;
        sum_ -= out;
        return sum_;
    }

private:
    std::uint64_t sum_ = 0;
};

class MovingSumChunker final : public Chunker {
public:
    explicit MovingSumChunker(const ChunkerSettings& settings)
        : settings_(settings), window_(settings.window_size == 0 ? 4096 : settings.window_size) {}

    Cut cut(std::span<const std::uint8_t> data, bool) const override {
        const std::size_t limit = std::min(data.size(), settings_.max_size);
        const std::size_t first = std::max(settings_.min_size, window_);
        if (limit < first) return {limit, 0};
        std::uint64_t sum = 0;
        for (std::size_t i = first - window_; i < first; ++i) sum += data[i];
        for (std::size_t end = first;; ++end) {  // `sum` covers data[end - window_, end)
            if (sum % settings_.avg_size == 0) return {end, sum};
            if (end == limit) return {limit, sum};
            sum += data[end];
            sum -= data[end - window_];
        }
    }

    std::size_t lookahead() const noexcept override { return settings_.max_size; }
    std::size_t footprint() const noexcept override { return sizeof(*this); }

private:
    ChunkerSettings settings_;
    std::size_t window_;
};

}  // namespace

std::unique_ptr<RollingHash> make_rabin_karp_hash(std::size_t window) {
    return std::make_unique<RabinKarpHash>(window);
}

std::unique_ptr<RollingHash> make_moving_sum_hash(std::size_t) {
    return std::make_unique<MovingSumHash>();
}

std::unique_ptr<Chunker> make_moving_sum_chunker(const ChunkerSettings& settings) {
    return std::make_unique<MovingSumChunker>(settings);
}

struct RabinKarpSearch::Width {
    std::size_t length;
    RabinKarp hash;
    std::unordered_multimap<std::uint64_t, std::size_t> needles;  // index by hash
};

RabinKarpSearch::RabinKarpSearch(std::span<const std::span<const std::uint8_t>> needles)
    : needles_(needles.begin(), needles.end()) {
    for (std::size_t i = 0; i < needles_.size(); ++i) {
        auto width = std::find_if(widths_.begin(), widths_.end(),
                                  [&](const Width& w) { return w.length == needles_[i].size(); });
        if (width == widths_.end())
            width = widths_.insert(widths_.end(), {needles_[i].size(), RabinKarp(needles_[i].size()), {}});
        width->needles.emplace(RabinKarp(needles_[i].size()).start(needles_[i]), i);
    }
}

RabinKarpSearch::~RabinKarpSearch() = default;

std::size_t RabinKarpSearch::find(std::span<const std::uint8_t> haystack, std::size_t from, std::size_t limit,
                                  std::vector<Match>& matches, StopToken stop) {
    // Polls by work done, not by offsets: an offset costs one step per needle length plus its verifications.
    constexpr std::size_t poll_every = std::size_t{1} << 22;
    std::size_t work = 0;
    const std::size_t added_before = matches.size();
    for (std::size_t offset = from; offset <= haystack.size(); ++offset) {
        work += widths_.size() + 1;
        const std::size_t first_of_offset = matches.size();
        for (Width& width : widths_) {
            if (offset + width.length > haystack.size()) continue;
            const std::uint64_t hash =
                width.length == 0 ? 0  // the empty needle occurs everywhere
                : offset == from  ? width.hash.start(haystack.subspan(offset, width.length))
                                  : width.hash.roll(haystack[offset - 1], haystack[offset + width.length - 1]);
            const auto [begin, end] = width.needles.equal_range(hash);
            for (auto it = begin; it != end; ++it) {
                const auto& needle = needles_[it->second];
                work += needle.size();
                if (std::equal(needle.begin(), needle.end(), haystack.begin() + static_cast<std::ptrdiff_t>(offset)))
                    matches.push_back({offset, it->second});
            }
        }
        if (work >= poll_every) {
            stop.poll();
            work = 0;
        }
        std::sort(matches.begin() + static_cast<std::ptrdiff_t>(first_of_offset), matches.end(),
                  [](const Match& a, const Match& b) { return a.needle < b.needle; });
        if (matches.size() - added_before >= limit) return offset + 1;
    }
    return haystack.size() + 1;
}

std::vector<std::uint64_t> winnow(std::string_view utf8, std::int64_t k_argument, std::int64_t w_argument,
                                  StopToken stop) {
    const auto in_range = [](std::int64_t v) { return v >= 1 && v <= static_cast<std::int64_t>(max_winnow_parameter); };
    if (!in_range(k_argument) || !in_range(w_argument))
        throw Error(ErrorKind::invalid_parameter, "winnow needs k and w between 1 and " +
                                                      std::to_string(max_winnow_parameter) + " (got k = " +
                                                      std::to_string(k_argument) + ", w = " +
                                                      std::to_string(w_argument) + ")");
    const auto k = static_cast<std::size_t>(k_argument);
    const auto w = static_cast<std::size_t>(w_argument);
    std::vector<std::uint64_t> fingerprints;
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

}  // namespace idcodec::cdc
