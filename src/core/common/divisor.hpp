// Division by a divisor known in advance (an alphabet's length, a radix), done by multiplication for numerators below
// 2^32: Lemire, Kaser and Kurz, "Faster remainder by direct computation" (2019). Larger numerators divide normally.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstdint>
#include <stdexcept>

namespace idcodec {

class Divisor {
public:
    // The multiplication needs divisor >= 2; 1 always takes the plain division. 0 is refused here, whatever the
    // caller checked, because dividing by it would stop the process.
    explicit Divisor(std::uint32_t divisor)
        : divisor_(checked(divisor)),
          inverse_(UINT64_MAX / divisor_ + 1),
          fast_below_(divisor >= 2 ? std::uint64_t{1} << 32 : 0) {}

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

    std::uint64_t quotient(std::uint64_t n) const noexcept {
        std::uint64_t r;
        return divide(n, r);
    }

    std::uint64_t remainder(std::uint64_t n) const noexcept {
        std::uint64_t r;
        divide(n, r);
        return r;
    }

private:
    static std::uint32_t checked(std::uint32_t divisor) {
        if (divisor == 0) throw std::invalid_argument("division by an empty alphabet");
        return divisor;
    }

    std::uint32_t divisor_;
    std::uint64_t inverse_;
    std::uint64_t fast_below_;  // numerators below this use the multiplication
};

}  // namespace idcodec
