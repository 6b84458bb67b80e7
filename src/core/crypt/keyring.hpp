// Named keys, from the text of the keyring file only the server's user can read: entries `name = hex`, one or more
// a line (separated by commas or white space), `#` starting a comment that runs to the end of its line, e.g.
//     # customer IDs since 2026
//     customers = 2b7e151628aed2a6abf7158809cf4f3c
// A name is 1 to 63 ASCII letters, digits and underscores (case-sensitive); a key is 32, 48 or 64 hexadecimal
// digits (AES-128, -192, -256).
#pragma once
#include "core/common/no_postgres.hpp"

#include <optional>
#include <string_view>

#include "core/common/secret.hpp"

namespace idcodec::crypt {

// Whether `name` has a key name's form.
bool is_key_name(std::string_view name) noexcept;

// Throws Error(invalid_parameter) unless every entry of the keyring is well-formed and no name repeats; the message
// names the line, never quoting it (a line holds a key).
void check_keyring(std::string_view keyring);

// The key named `name` in a keyring that passed check_keyring; nothing when no entry has that name.
std::optional<SecretBytes> key_of(std::string_view keyring, std::string_view name);

}  // namespace idcodec::crypt
