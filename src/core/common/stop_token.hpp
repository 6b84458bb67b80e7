// Lets loops over user data stop when the host asks: the host owns flags that a signal handler sets (PostgreSQL:
// a pending query cancel and a pending termination).
#pragma once
#include "core/common/no_postgres.hpp"

#include <csignal>
#include <cstddef>

#include "core/common/error.hpp"

namespace idcodec {

class StopToken {
public:
    using Flag = const volatile std::sig_atomic_t*;

    StopToken() = default;
    StopToken(Flag first, Flag second) : first_(first), second_(second) {}

    bool requested() const noexcept { return (first_ != nullptr && *first_) || (second_ != nullptr && *second_); }

    // Called once per item of a loop over user data; throws Error(interrupted) when a stop was requested.
    void poll() const {
        if (requested()) [[unlikely]]
            stop();
    }

    // For loops of cheap items (characters, numbers): polls after every poll_stride items, so a short ID pays no
    // check (PostgreSQL checks between rows) while a long one still stops within microseconds.
    static constexpr std::size_t poll_stride = 1024;
    void poll_at(std::size_t item) const {
        if (item % poll_stride == poll_stride - 1) [[unlikely]]
            poll();
    }

private:
    // Out of line and cold, so the loops that poll keep their values in registers rather than around a throw.
    [[noreturn, gnu::cold]] static void stop();

    Flag first_ = nullptr;
    Flag second_ = nullptr;
};

}  // namespace idcodec
