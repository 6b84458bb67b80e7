// Division by a divisor known in advance (an alphabet's length), done by multiplication for numerators below
// 2^32: Lemire, Kaser and Kurz, "Faster remainder by direct computation" (2019). Larger numerators divide normally.
#pragma once

#include <cstdint>

namespace idcodec {

class Divisor {
public:
    // divisor >= 1 (the multiplication needs divisor >= 2; 1 always takes the plain division)
    explicit Divisor(std::uint32_t divisor)
        : divisor_(divisor), inverse_(UINT64_MAX / divisor + 1), fast_below_(divisor >= 2 ? std::uint64_t{1} << 32 : 0) {}

    std::uint32_t value() const noexcept { return divisor_; }

    // n / divisor, with n % divisor stored in `remainder`.
    std::uint64_t divide(std::uint64_t n, std::uint64_t& remainder) const noexcept {
        if (n >= fast_below_) {
            remainder = n % divisor_;
            return n / divisor_;
        }
        using u128 = unsigned __int128;
        remainder = static_cast<std::uint64_t>((static_cast<u128>(inverse_ * n) * divisor_) >> 64);
        return static_cast<std::uint64_t>((static_cast<u128>(inverse_) * n) >> 64);
    }

    std::uint64_t remainder(std::uint64_t n) const noexcept {
        std::uint64_t r;
        divide(n, r);
        return r;
    }

private:
    std::uint32_t divisor_;
    std::uint64_t inverse_;
    std::uint64_t fast_below_;  // numerators below this use the multiplication
};

}  // namespace idcodec
