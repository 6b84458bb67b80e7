// The identifier codecs' building blocks: division by multiplication.
#include <cstdint>
#include <gtest/gtest.h>
#include <random>

#include "core/ids/divisor.hpp"

namespace idcodec {
namespace {

TEST(Divisor, AgreesWithHardwareDivision) {
    std::mt19937_64 random(7);
    for (std::uint32_t d : {1u, 2u, 3u, 7u, 16u, 49u, 62u, 64u, 1000u, 65535u, 4294967295u}) {
        const Divisor divisor(d);
        for (int i = 0; i < 20000; ++i) {
            std::uint64_t n = random();
            if (i % 2) n >>= 32;  // the multiplication path
            if (i % 5 == 0) n = (n >> 32) | 0xFFFFFFFFull;
            std::uint64_t remainder;
            ASSERT_EQ(divisor.divide(n, remainder), n / d) << n << " / " << d;
            ASSERT_EQ(remainder, n % d) << n << " % " << d;
        }
    }
}

}  // namespace
}  // namespace idcodec
