// The one place where C++ exceptions become PostgreSQL errors.
//
// Code that may throw runs inside guarded(): its exceptions are caught and copied into a plain struct, and only
// after every C++ frame of that code is gone is ereport() called. Callers keep nothing but trivially destructible
// values (pointers, numbers, views) in their own frames, so PostgreSQL's longjmp skips no destructor.
#pragma once

#include "core/common/stop_token.hpp"

#include "pg/postgres.hpp"

namespace idcodec::pg {

// Filled in only when something was thrown, so nothing here is initialized on the (per-row) happy path.
struct CapturedError {
    int sqlstate;
    bool interrupted;
    char message[1024];
};

// Records the exception being handled; call only from a catch block.
void capture_current_exception(CapturedError& error) noexcept;

[[noreturn]] void raise(const CapturedError& error);

// Runs body(); true if it returned, false if it threw (the exception is then in `error`). Inline: a try block costs
// nothing until something is thrown, while a call costs every row.
template <class Body>
[[gnu::always_inline]] inline bool capturing(Body&& body, CapturedError& error) noexcept {
    try {
        body();
        return true;
    } catch (...) {
        capture_current_exception(error);
        return false;
    }
}

// Runs body(StopToken), the way shim code calls the core. The token reports a pending cancel (a cancel request,
// statement_timeout) or termination, at which the core stops by throwing; the interrupt is then served here and
// ends the query. Should it not (it is held off), the work runs again without polling, so it cannot loop.
// Inlined into its caller: a frame of its own cost every row a call and a second stack guard.
template <class Body>
[[gnu::always_inline]] inline void guarded(Body&& body) {
    CapturedError error;
    bool poll = true;
    const auto run = [&] { body(poll ? StopToken(&QueryCancelPending, &ProcDiePending) : StopToken()); };
    while (!capturing(run, error)) {
        if (!error.interrupted) raise(error);
        CHECK_FOR_INTERRUPTS();
        poll = false;
    }
}

}  // namespace idcodec::pg
