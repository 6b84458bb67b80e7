// Errors raised by the core. The PostgreSQL shim maps each kind to a SQLSTATE.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace idcodec {

enum class ErrorKind {
    invalid_parameter,  // a setting (alphabet, salt, length, ...) breaks a rule
    out_of_range,       // a number is negative or too large
    invalid_text,       // malformed input text given to an encoder
    program_limit,      // a result would exceed what the host can store
    undefined_object,   // a named thing (a key of the keyring) does not exist
    interrupted,        // the host asked long work to stop; not a user-visible error
};

// User text quoted in an error message (an unknown algorithm name, a malformed ObjectId) is clipped to this many
// bytes, on a character boundary, so a huge argument cannot make a huge message.
inline constexpr std::size_t quoted_text_bytes = 64;

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

private:
    ErrorKind kind_;
};

}  // namespace idcodec
