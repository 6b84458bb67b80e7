// Rabin fingerprints over GF(2) and the restic chunker (github.com/restic/chunker 0.4.0), byte-exact.
//
// A fingerprint is the data read as a polynomial over GF(2) (first byte highest, bit 7 of a byte highest),
// reduced modulo an irreducible polynomial P of degree 53. restic's chunker slides a 64-byte window over each
// chunk and cuts where the fingerprint's low average_bits bits are all zero.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/chunking/chunker.hpp"

namespace idcodec::cdc {

namespace rabin {

// A polynomial over GF(2): bit i is the coefficient of x^i.
using Pol = std::uint64_t;

inline constexpr Pol default_polynomial = 0x3DA3358B4DC173;  // restic's chunker.Pol default
inline constexpr std::size_t chunker_window = 64;            // restic's windowSize
// Largest max_size accepted: a chunker buffers up to max_size bytes (and PostgreSQL values stay below 1 GB).
inline constexpr std::size_t max_chunk_size = std::size_t{1} << 30;

// Degree of p (-1 for 0).
int degree(Pol p) noexcept;

// Ben-Or's test, as restic's Pol.Irreducible: gcd(p, x^(2^i) - x mod p) = 1 for i = 1 .. deg(p)/2.
// Defined for 1 <= deg(p) <= 62.
bool irreducible(Pol p) noexcept;

// The polynomial a seed selects. Seed 0 is restic's default polynomial. Any other seed runs restic's
// DerivePolynomial over a deterministic byte source instead of crypto/rand: the source is SplitMix64 seeded
// with `seed`, each output read as 8 little-endian bytes (so each try takes the next output u): candidate
// f = (u & (2^54 - 1)) | 2^53 | 1, and the first irreducible f is the polynomial (about 1 try in 26 succeeds).
Pol polynomial_for_seed(std::uint64_t seed);

// Lookup tables for one polynomial and window size, as restic's fillTables computes them.
class Tables {
public:
    Tables(Pol polynomial, std::size_t window);

    Pol polynomial() const noexcept { return polynomial_; }

    // Appends byte b to the fingerprint (digest * x^8 + b mod P); digest has degree < 53.
    std::uint64_t append(std::uint64_t digest, std::uint8_t b) const noexcept {
        const std::uint64_t top = digest >> shift_;
        return ((digest << 8) | b) ^ mod_[top];
    }
    // Removes byte b that entered the window `window` bytes ago: adds b * x^(8(window-1)) mod P.
    std::uint64_t remove(std::uint64_t digest, std::uint8_t b) const noexcept { return digest ^ out_[b]; }

    // The fingerprint of `bytes` alone, appended to an empty digest.
    std::uint64_t fingerprint(std::span<const std::uint8_t> bytes) const noexcept {
        std::uint64_t digest = 0;
        for (const std::uint8_t b : bytes) digest = append(digest, b);
        return digest;
    }

private:
    Pol polynomial_;
    unsigned shift_;                      // deg(P) - 8: selects the 8 bits that overflow on the next append
    std::array<std::uint64_t, 256> out_;  // out[b] = b * x^(8(window-1)) mod P
    std::array<std::uint64_t, 256> mod_;  // mod[b] = (b * x^deg mod P) | (b << deg): reduces and cancels in one XOR
};

}  // namespace rabin

// restic's chunker. Settings: min_size = MinSize (>= 64), max_size = MaxSize, avg_size = 2^average_bits,
// window_size 0 or 64, seed as rabin::polynomial_for_seed. Cut.hash is restic's Chunk.Cut: the fingerprint at
// the cut, which for every chunk of at least min_size bytes is the fingerprint of its last 64 bytes; for a
// shorter last chunk it is restic's digest at the end of the data (1 if no byte was hashed).
class RabinChunker final : public BoundedChunker<RabinChunker> {
public:
    explicit RabinChunker(const ChunkerSettings& settings);

    Cut cut(std::span<const std::uint8_t> data, bool final) const override;

    rabin::Pol polynomial() const noexcept { return tables_.polynomial(); }

private:
    std::size_t min_size_;
    std::uint64_t split_mask_;
    rabin::Tables tables_;
};

namespace rabin {

// The fingerprint of the last `window` bytes, for any window (1 .. max_window_size): the steps of RabinHash.
// start() fingerprints the window from an empty state (restic's reset state only matters to its chunker).
struct HashSteps {
    HashSteps(std::size_t window, std::uint64_t seed) : tables(polynomial_for_seed(seed), window) {}

    std::uint64_t start(std::span<const std::uint8_t> window) const noexcept { return tables.fingerprint(window); }
    std::uint64_t roll(std::uint64_t digest, std::uint8_t out, std::uint8_t in) const noexcept {
        return tables.append(tables.remove(digest, out), in);
    }

    Tables tables;
};

}  // namespace rabin

using RabinHash = WindowHash<rabin::HashSteps>;

}  // namespace idcodec::cdc
