// The one entry path of every SQL function. IDCODEC_SQL_FUNCTION(symbol) { body } defines the C symbol the
// function's CREATE FUNCTION names and runs the body through enter(): a C++ exception the body lets escape (from
// shim code outside guarded()) is caught there and raised as a PostgreSQL error after the body's frames are gone.
// No entry point is written any other way (`make check-boundary` fails on a PG_FUNCTION_INFO_V1 elsewhere).
#pragma once

#include "pg/bridge.hpp"

namespace idcodec::pg {

template <Datum (*Body)(FunctionCallInfo)>
Datum enter(FunctionCallInfo fcinfo) {
    CapturedError error;
    Datum result;
    if (capturing([&] { result = Body(fcinfo); }, error)) return result;
    raise(error);
}

}  // namespace idcodec::pg

// A macro because the symbol needs C linkage and PostgreSQL's V1 information record beside it; the body that
// follows it is an ordinary function of `fcinfo`.
#define IDCODEC_SQL_FUNCTION(symbol)                                                       \
    static Datum symbol##_body(FunctionCallInfo fcinfo);                                   \
    extern "C" {                                                                           \
    PG_FUNCTION_INFO_V1(symbol);                                                           \
    }                                                                                      \
    Datum symbol(PG_FUNCTION_ARGS) { return ::idcodec::pg::enter<symbol##_body>(fcinfo); } \
    static Datum symbol##_body(FunctionCallInfo fcinfo)
