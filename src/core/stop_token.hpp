// Lets loops over user data stop when the host asks (PostgreSQL sets a flag from a signal handler).
#pragma once

#include <csignal>
#include <cstddef>

#include "error.hpp"

namespace idcodec {

class StopToken {
public:
    StopToken() = default;
    explicit StopToken(const volatile std::sig_atomic_t* flag) : flag_(flag) {}

    bool requested() const noexcept { return flag_ != nullptr && *flag_ != 0; }

    // Called once per item of a long loop; looks at the flag every `interval` items.
    void poll(std::size_t item, std::size_t interval = 4096) const {
        if (item % interval == 0 && requested()) throw Error(ErrorKind::interrupted, "interrupted");
    }

private:
    const volatile std::sig_atomic_t* flag_ = nullptr;
};

}  // namespace idcodec
