#include <cstring>
#include <exception>
#include <new>
#include <string_view>

#include "core/common/error.hpp"
#include "core/common/utf8.hpp"

#include "pg/bridge.hpp"
#include "pg/values.hpp"

namespace idcodec::pg {

namespace {

int sqlstate_of(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::invalid_parameter:
            return ERRCODE_INVALID_PARAMETER_VALUE;
        case ErrorKind::out_of_range:
            return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
        case ErrorKind::invalid_text:
            return ERRCODE_INVALID_TEXT_REPRESENTATION;
        case ErrorKind::program_limit:
            return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
        case ErrorKind::undefined_object:
            return ERRCODE_UNDEFINED_OBJECT;
        case ErrorKind::interrupted:
            return ERRCODE_QUERY_CANCELED;
    }
    return ERRCODE_INTERNAL_ERROR;
}

// The message is UTF-8; a long one is cut on a character boundary, never inside one.
void set(CapturedError& error, int sqlstate, const char* message) noexcept {
    error.sqlstate = sqlstate;
    const std::string_view kept = utf8::clip(message, sizeof error.message - 1);
    std::memcpy(error.message, kept.data(), kept.size());
    error.message[kept.size()] = '\0';
}

}  // namespace

void capture_current_exception(CapturedError& error) noexcept {
    error.interrupted = false;
    try {
        throw;
    } catch (const Error& e) {
        error.interrupted = e.kind() == ErrorKind::interrupted;
        set(error, sqlstate_of(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
        set(error, ERRCODE_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        set(error, ERRCODE_INTERNAL_ERROR, e.what());
    } catch (...) {
        set(error, ERRCODE_INTERNAL_ERROR, "unexpected C++ exception");
    }
}

void raise(const CapturedError& error) {
    ereport(ERROR, (errcode(error.sqlstate), errmsg("%s", message_from_utf8(error.message))));
    pg_unreachable();
}

}  // namespace idcodec::pg
