// The Rabin-Karp polynomial hash modulo the Mersenne prime 2^61-1 with base 16777619, symbols (bytes or code
// points) as unsigned: hash(s_0 .. s_{w-1}) = sum s_i * base^(w-1-i) mod (2^61-1). Shared by two families:
// rolling_hash (chunking) and the substring search and winnowing (search).
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>

namespace idcodec {

inline constexpr std::uint64_t rabin_karp_modulus = (std::uint64_t{1} << 61) - 1;
inline constexpr std::uint64_t rabin_karp_base = 16777619;

// The hash of a window of `window` symbols, sliding one symbol at a time.
class RabinKarp {
public:
    explicit RabinKarp(std::size_t window) : leading_(power(rabin_karp_base, window == 0 ? 0 : window - 1)) {}

    template <class Symbols>
    std::uint64_t start(const Symbols& window) {
        hash_ = 0;
        for (const auto symbol : window) hash_ = add(multiply(hash_, rabin_karp_base), symbol % rabin_karp_modulus);
        return hash_;
    }

    // `out` leaves the window (0 while it is still filling), `in` enters it.
    std::uint64_t roll(std::uint64_t out, std::uint64_t in) {
        hash_ = add(multiply(subtract(hash_, multiply(out % rabin_karp_modulus, leading_)), rabin_karp_base),
                    in % rabin_karp_modulus);
        return hash_;
    }

private:
    static std::uint64_t multiply(std::uint64_t a, std::uint64_t b) {
        const auto product = static_cast<unsigned __int128>(a) * b;
        // 2^61 = 1 (mod 2^61-1): fold the high part onto the low part.
        const std::uint64_t folded =
            static_cast<std::uint64_t>(product & rabin_karp_modulus) + static_cast<std::uint64_t>(product >> 61);
        return folded >= rabin_karp_modulus ? folded - rabin_karp_modulus : folded;
    }
    static std::uint64_t add(std::uint64_t a, std::uint64_t b) {
        const std::uint64_t sum = a + b;
        return sum >= rabin_karp_modulus ? sum - rabin_karp_modulus : sum;
    }
    static std::uint64_t subtract(std::uint64_t a, std::uint64_t b) {
        return a >= b ? a - b : a + rabin_karp_modulus - b;
    }
    static std::uint64_t power(std::uint64_t base, std::size_t exponent) {
        std::uint64_t result = 1;
        for (; exponent > 0; exponent >>= 1, base = multiply(base, base))
            if (exponent & 1) result = multiply(result, base);
        return result;
    }

    std::uint64_t leading_;  // base^(window-1): the weight of the symbol leaving
    std::uint64_t hash_ = 0;
};

}  // namespace idcodec
