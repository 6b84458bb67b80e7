#include <algorithm>
#include <bit>
#include <string>

#include "core/chunking/lane_scan.hpp"
#include "core/chunking/rabin.hpp"
#include "core/common/error.hpp"

namespace idcodec::cdc {

namespace rabin {

namespace {

// x mod p.
Pol reduce(Pol x, Pol p) noexcept {
    const int dp = degree(p);
    for (int d = degree(x); d >= dp; d = degree(x)) x ^= p << (d - dp);
    return x;
}

// a * b mod p for a, b already reduced and deg(p) <= 62 (so a shifted value never leaves 64 bits).
Pol mulmod(Pol a, Pol b, Pol p) noexcept {
    const Pol top = Pol{1} << degree(p);
    Pol result = 0;
    for (int i = degree(b); i >= 0; --i) {
        result <<= 1;
        if (result & top) result ^= p;
        if ((b >> i) & 1) result ^= a;
    }
    return result;
}

Pol gcd(Pol a, Pol b) noexcept {
    while (b != 0) {
        a = reduce(a, b);
        std::swap(a, b);
    }
    return a;
}

// x^e mod p by square-and-multiply.
Pol x_power(std::uint64_t e, Pol p) noexcept {
    Pol result = reduce(1, p);
    Pol base = reduce(2, p);
    for (; e != 0; e >>= 1) {
        if (e & 1) result = mulmod(result, base, p);
        base = mulmod(base, base, p);
    }
    return result;
}

// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-known generator, so the seed rule is easy to reproduce.
std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    return z ^ (z >> 31);
}

}  // namespace

int degree(Pol p) noexcept { return 63 - std::countl_zero(p); }

bool irreducible(Pol p) noexcept {
    const int d = degree(p);
    if (d < 1) return false;
    const Pol x = reduce(2, p);
    Pol power = x;  // x^(2^i) mod p, squared once per round
    for (int i = 1; i <= d / 2; ++i) {
        power = mulmod(power, power, p);
        if (gcd(p, power ^ x) != 1) return false;
    }
    return true;
}

Pol polynomial_for_seed(std::uint64_t seed) {
    if (seed == 0) return default_polynomial;
    std::uint64_t state = seed;
    // restic gives up after a million tries; with ~1 in 26 candidates irreducible that never happens in practice.
    for (int attempt = 0; attempt < 1'000'000; ++attempt) {
        const Pol candidate = (splitmix64(state) & ((Pol{1} << 54) - 1)) | (Pol{1} << 53) | 1;
        if (irreducible(candidate)) return candidate;
    }
    throw Error(ErrorKind::invalid_parameter,
                "rabin seed " + std::to_string(seed) + " yields no irreducible polynomial of degree 53");
}

Tables::Tables(Pol polynomial, std::size_t window)
    : polynomial_(polynomial), shift_(static_cast<unsigned>(degree(polynomial) - 8)) {
    const int deg = degree(polynomial);
    // out[b] is linear in b, so one power x^(8(window-1)) serves every bit; restic appends window-1 zero bytes
    // per entry instead, which is the same value but too slow for large windows.
    const Pol shifted = x_power(8 * (static_cast<std::uint64_t>(window) - 1), polynomial);
    std::array<Pol, 8> out_bits{};
    for (int j = 0; j < 8; ++j) out_bits[j] = mulmod(reduce(Pol{1} << j, polynomial), shifted, polynomial);
    for (unsigned b = 0; b < 256; ++b) {
        Pol out = 0;
        for (int j = 0; j < 8; ++j)
            if ((b >> j) & 1) out ^= out_bits[j];
        out_[b] = out;
        mod_[b] = reduce(Pol{b} << deg, polynomial) | (Pol{b} << deg);
    }
}

}  // namespace rabin

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorKind::invalid_parameter, message); }

// restic's sliding window as the lane scan steps it: a digest is the fingerprint of the last 64 bytes alone.
class RabinLanes {
public:
    static constexpr std::size_t warmup = rabin::chunker_window;

    RabinLanes(const rabin::Tables& tables, std::uint64_t mask) noexcept : tables_(tables), mask_(mask) {}

    std::uint64_t grow(std::uint64_t digest, const std::uint8_t* at) const noexcept {
        return tables_.append(digest, *at);
    }
    std::uint64_t step(std::uint64_t digest, std::uint8_t in, const std::uint8_t* at) const noexcept {
        return tables_.append(tables_.remove(digest, at[-static_cast<std::ptrdiff_t>(warmup)]), in);
    }
    bool hit(std::uint64_t digest) const noexcept { return (digest & mask_) == 0; }

private:
    const rabin::Tables& tables_;
    std::uint64_t mask_;
};

std::string str(std::size_t n) { return std::to_string(n); }

// Checked before the tables are built, so bad settings cost nothing.
const ChunkerSettings& validated_rabin(const ChunkerSettings& s) {
    if (s.window_size != 0 && s.window_size != rabin::chunker_window)
        invalid("rabin chunker window_size must be 64 (restic's window), or 0 for that default (got " +
                str(s.window_size) + ")");
    // restic skips MinSize - 64 bytes in unsigned arithmetic: a smaller MinSize wraps around and the whole input
    // becomes one chunk, whatever MaxSize says.
    if (s.min_size < rabin::chunker_window)
        invalid("rabin chunker min_size must be at least 64, the window size (got " + str(s.min_size) + ")");
    if (!std::has_single_bit(s.avg_size))
        invalid("rabin chunker avg_size must be a power of two, 2^average_bits (got " + str(s.avg_size) + ")");
    if (s.max_size > rabin::max_chunk_size)
        invalid("rabin chunker max_size must be at most " + str(rabin::max_chunk_size) + " (got " + str(s.max_size) +
                ")");
    if (!(s.min_size <= s.avg_size && s.avg_size <= s.max_size))
        invalid("rabin chunker sizes must satisfy min_size <= avg_size <= max_size (got " + str(s.min_size) + ", " +
                str(s.avg_size) + ", " + str(s.max_size) + ")");
    return s;
}

}  // namespace

RabinChunker::RabinChunker(const ChunkerSettings& s)
    : BoundedChunker(validated_rabin(s).max_size),
      min_size_(s.min_size),
      split_mask_(s.avg_size - 1),
      tables_(rabin::polynomial_for_seed(s.seed), rabin::chunker_window) {}

Cut RabinChunker::cut(std::span<const std::uint8_t> data, bool final) const {
    if (!final && data.size() < max_size_)
        invalid("chunker cut() needs at least lookahead() bytes unless final (got " + str(data.size()) + ")");
    const std::size_t n = std::min(data.size(), max_size_);
    if (n == 0) return {0, 0};

    // restic's reset: an empty window into which byte 1 is slid, so the digest starts at 1. The first
    // min_size - 64 bytes are skipped unhashed; the 1 leaves the window just as the window fills with data,
    // which is also the first place a cut is allowed (at min_size).
    const std::size_t skip = min_size_ - rabin::chunker_window;
    std::uint64_t digest = 1;
    const std::size_t warm_end = std::min(min_size_, n);
    for (std::size_t i = skip; i < warm_end; ++i) {
        if (i + 1 == min_size_) digest = tables_.remove(digest, 1);  // earlier slid-out bytes are 0: no-ops
        digest = tables_.append(digest, data[i]);
    }
    if (n < min_size_) return {n, digest};
    if ((digest & split_mask_) == 0) return {min_size_, digest};
    // From here on the digest is the fingerprint of the 64 bytes up to the current one, nothing else: the lane scan
    // applies, and leaves the digest at the cut.
    const std::size_t hit = find_first_hit(RabinLanes(tables_, split_mask_), data.data(), min_size_, n, digest);
    // At max_size or the end of the data, restic reports its digest as it stands.
    return {hit < n ? hit + 1 : n, digest};
}

}  // namespace idcodec::cdc
