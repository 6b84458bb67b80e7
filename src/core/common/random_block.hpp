// Random bytes drawn from a CSPRNG a block at a time, so generating an ID does not pay for a call into the CSPRNG.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <span>

namespace idcodec {

// The block belongs to the process that filled it: a process made by fork() inherits its parent's unused bytes,
// which the parent may still hand out, so a block filled by any other process than the caller is refilled before
// use. Two processes therefore never hand out the same bytes.
template <std::size_t Size>
class RandomBlock {
public:
    // Copies out.size() (at most Size) fresh bytes into `out`, for process `process`. fill(std::span<std::uint8_t>)
    // fills the block from the CSPRNG and returns false when it cannot; then nothing is handed out and this returns
    // false.
    template <class Fill>
    bool take(std::span<std::uint8_t> out, long process, Fill&& fill) noexcept {
        static_assert(noexcept(fill(std::span<std::uint8_t>())));
        if (process != owner_ || Size - used_ < out.size()) {
            if (!fill(std::span<std::uint8_t>(bytes_))) {
                owner_ = no_process;
                return false;
            }
            owner_ = process;
            used_ = 0;
        }
        std::memcpy(out.data(), bytes_.data() + used_, out.size());
        // handed-out bytes do not stay behind in the block
        std::memset(bytes_.data() + used_, 0, out.size());
        used_ += out.size();
        return true;
    }

private:
    static constexpr long no_process = -1;
    std::array<std::uint8_t, Size> bytes_{};
    std::size_t used_ = Size;
    long owner_ = no_process;
};

}  // namespace idcodec
