// The keyring setting (idcodec.keyring): named FF1 keys that only a superuser can read or set.
#pragma once

#include <cstdint>
#include <string_view>

namespace idcodec::pg {

// Defines the setting; `at_server_start`: the module is being loaded by shared_preload_libraries.
void define_keyring_setting(bool at_server_start);

// The keyring's text. Raises an error (55000) unless the module was loaded at server start: loaded later, the
// server would have kept the setting's value from the configuration file as a placeholder anyone can read.
std::string_view keyring_text();

// Changes whenever the keyring is assigned (at start, on a configuration reload): part of a cached cipher's
// settings, so a reload is seen by the next call that prepares its cipher.
std::uint64_t keyring_generation() noexcept;

}  // namespace idcodec::pg
