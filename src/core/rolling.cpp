#include "rolling.hpp"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "error.hpp"

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

std::size_t rabin_karp_find(std::span<const std::uint8_t> haystack,
                            std::span<const std::span<const std::uint8_t>> needles, std::size_t from,
                            std::size_t limit, std::vector<Match>& matches, StopToken stop) {
    // One rolling hash per distinct needle length; the needles of that length by hash.
    struct Width {
        std::size_t length;
        RabinKarp hash;
        std::unordered_multimap<std::uint64_t, std::size_t> needles;
    };
    std::vector<Width> widths;
    for (std::size_t i = 0; i < needles.size(); ++i) {
        auto width = std::find_if(widths.begin(), widths.end(),
                                  [&](const Width& w) { return w.length == needles[i].size(); });
        if (width == widths.end())
            width = widths.insert(widths.end(), {needles[i].size(), RabinKarp(needles[i].size()), {}});
        width->needles.emplace(RabinKarp(needles[i].size()).start(needles[i]), i);
    }

    const std::size_t added_before = matches.size();
    for (std::size_t offset = from; offset <= haystack.size(); ++offset) {
        if (offset % 65536 == 0) stop.poll();
        const std::size_t first_of_offset = matches.size();
        for (Width& width : widths) {
            if (offset + width.length > haystack.size()) continue;
            const std::uint64_t hash =
                width.length == 0 ? 0  // the empty needle occurs everywhere
                : offset == from  ? width.hash.start(haystack.subspan(offset, width.length))
                                  : width.hash.roll(haystack[offset - 1], haystack[offset + width.length - 1]);
            const auto [begin, end] = width.needles.equal_range(hash);
            for (auto it = begin; it != end; ++it) {
                const auto& needle = needles[it->second];
                if (std::equal(needle.begin(), needle.end(), haystack.begin() + static_cast<std::ptrdiff_t>(offset)))
                    matches.push_back({offset, it->second});
            }
        }
        std::sort(matches.begin() + static_cast<std::ptrdiff_t>(first_of_offset), matches.end(),
                  [](const Match& a, const Match& b) { return a.needle < b.needle; });
        if (matches.size() - added_before >= limit) return offset + 1;
    }
    return haystack.size() + 1;
}

std::vector<std::uint64_t> winnow(std::span<const char32_t> symbols, std::size_t k, std::size_t w, StopToken stop) {
    if (k == 0 || w == 0) throw Error(ErrorKind::invalid_parameter, "winnow needs k >= 1 and w >= 1");
    std::vector<std::uint64_t> fingerprints;
    if (symbols.size() < k) return fingerprints;
    const std::size_t grams = symbols.size() - k + 1;
    RabinKarp hasher(k);
    std::vector<std::uint64_t> hashes(grams);
    hashes[0] = hasher.start(symbols.first(k));
    for (std::size_t i = 1; i < grams; ++i) {
        if (i % 65536 == 0) stop.poll();
        hashes[i] = hasher.roll(symbols[i - 1], symbols[i + k - 1]);
    }

    // A deque of positions whose hashes increase strictly from front to back: the front is the window's rightmost
    // minimum, because an equal or larger hash is dropped when a newer one arrives.
    const std::size_t window = std::min(w, grams);
    std::deque<std::size_t> candidates;
    std::size_t last_selected = SIZE_MAX;
    for (std::size_t i = 0; i < grams; ++i) {
        while (!candidates.empty() && hashes[candidates.back()] >= hashes[i]) candidates.pop_back();
        candidates.push_back(i);
        if (candidates.front() + window <= i) candidates.pop_front();
        if (i + 1 < window) continue;
        if (candidates.front() != last_selected) {
            last_selected = candidates.front();
            fingerprints.push_back(hashes[last_selected]);
        }
    }
    return fingerprints;
}

}  // namespace idcodec::cdc
