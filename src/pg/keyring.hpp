// The keyring: named FF1 keys in a file only the server's user can read, named by the setting idcodec.keyring_file
// (set in the server's configuration by a superuser, read at start and on every reload).
#pragma once

#include <cstdint>
#include <string_view>

namespace idcodec::pg {

void define_keyring_setting();

// The keyring file's text, checked. Raises an error when no file is set or the one named could not be used, and in a
// parallel worker (which must not answer from a file its leader may have read at another time).
std::string_view keyring_text();

// Changes whenever the keyring is read (at start, on a configuration reload): part of a cached cipher's settings,
// so a reload is seen by the next call that prepares its cipher.
std::uint64_t keyring_generation() noexcept;

}  // namespace idcodec::pg
