#include "core/rabin_karp.hpp"

namespace idcodec::cdc {

namespace {

class RabinKarpHash final : public RollingHash {
public:
    explicit RabinKarpHash(std::size_t window) : state_(window) {}
    std::uint64_t start(std::span<const std::uint8_t> window) override { return state_.start(window); }
    std::uint64_t roll(std::uint8_t out, std::uint8_t in) override { return state_.roll(out, in); }

private:
    RabinKarp state_;
};

}  // namespace

std::unique_ptr<RollingHash> make_rabin_karp_hash(std::size_t window) {
    return std::make_unique<RabinKarpHash>(window);
}

}  // namespace idcodec::cdc
