// Named keys, from the text of a setting only a superuser can read: entries `name=hex` separated by commas or
// white space, e.g. "customers=2b7e1516...3c, invoices=...". A name is 1 to 63 ASCII letters, digits and
// underscores (case-sensitive); a key is 32, 48 or 64 hexadecimal digits (AES-128, -192, -256).
#pragma once
#include "core/common/no_postgres.hpp"

#include <optional>
#include <string_view>

#include "core/common/secret.hpp"

namespace idcodec::crypt {

// Whether `name` has a key name's form.
bool is_key_name(std::string_view name) noexcept;

// The key named `name`; nothing when no entry has that name. Throws Error(invalid_parameter) for a malformed
// keyring (naming the entry by its position: a message never quotes the keyring, which holds keys).
std::optional<SecretBytes> key_of(std::string_view keyring, std::string_view name);

}  // namespace idcodec::crypt
