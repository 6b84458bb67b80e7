// The positive control of the in-server sanitizer run, compiled into idcodec.so only by the sanitizer build
// (SANITIZE_SERVER=1) and named by no install script: test/sanitizer/server.sh declares it, calls each fault last, and
// fails unless the sanitized server reports it. A sanitizer that silently stopped working cannot pass that run.
#include <cstdint>
#include <memory>
#include <string_view>

#include "pg/entry.hpp"

namespace {

// One byte past the end of a heap block: AddressSanitizer's heap-buffer-overflow.
std::int64_t read_past_end(std::int64_t size) {
    const auto block = std::make_unique<std::uint8_t[]>(static_cast<std::size_t>(size));
    return block[static_cast<std::size_t>(size)];
}

// A shift by more than the type's width: UBSan's shift check. (Signed overflow would not do: PostgreSQL compiles
// with -fwrapv, which defines it.)
std::int64_t shift_past_width(std::int64_t bits) { return static_cast<std::int64_t>(std::uint64_t{1} << (bits + 63)); }

}  // namespace

// idcodec_sanitizer_control(fault text, operand bigint) → bigint: 'heap-buffer-overflow' reads byte `operand` of an
// `operand`-byte block; 'shift-out-of-bounds' shifts a 64-bit 1 by 63 + `operand`. Either returns only when
// unsanitized.
IDCODEC_SQL_FUNCTION(idcodec_sanitizer_control) {
    const std::string_view fault = text_to_cstring(PG_GETARG_TEXT_PP(0));
    const std::int64_t operand = PG_GETARG_INT64(1);
    if (operand < 1) ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("operand must be at least 1")));
    if (fault == "heap-buffer-overflow") PG_RETURN_INT64(read_past_end(operand));
    if (fault == "shift-out-of-bounds") PG_RETURN_INT64(shift_past_width(operand));
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("unknown fault")));
}
