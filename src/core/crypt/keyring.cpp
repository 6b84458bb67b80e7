#include <string>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
#include "core/crypt/keyring.hpp"

namespace idcodec::crypt {

namespace {

constexpr std::size_t max_name_bytes = 63;

bool is_separator(char c) noexcept { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

[[noreturn]] void malformed(std::size_t entry, const char* what) {
    throw Error(ErrorKind::invalid_parameter,
                "idcodec.keyring is malformed: entry " + std::to_string(entry) + " " + what);
}

}  // namespace

bool is_key_name(std::string_view name) noexcept {
    if (name.empty() || name.size() > max_name_bytes) return false;
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

std::optional<SecretBytes> key_of(std::string_view keyring, std::string_view name) {
    // Every entry is checked, the whole keyring each time, so a malformed one is reported whatever name is asked.
    std::optional<SecretBytes> found;
    std::size_t entry = 0;
    for (std::size_t pos = 0; pos < keyring.size();) {
        if (is_separator(keyring[pos])) {
            ++pos;
            continue;
        }
        ++entry;
        std::size_t end = pos;
        while (end < keyring.size() && !is_separator(keyring[end])) ++end;
        const std::string_view text = keyring.substr(pos, end - pos);
        pos = end;
        const std::size_t equals = text.find('=');
        if (equals == std::string_view::npos) malformed(entry, "has no '=' between a name and a key");
        const std::string_view entry_name = text.substr(0, equals), hex = text.substr(equals + 1);
        if (!is_key_name(entry_name)) malformed(entry, "has no name of 1 to 63 letters, digits and underscores");
        if (hex.size() != 32 && hex.size() != 48 && hex.size() != 64)
            malformed(entry, "has no key of 32, 48 or 64 hexadecimal digits");
        SecretBytes key(hex.size() / 2);
        if (!parse_hex(hex, key.bytes())) malformed(entry, "has a key with a character that is no hexadecimal digit");
        if (entry_name == name) {
            if (found) malformed(entry, "repeats the name of an earlier entry");
            found.emplace(std::move(key));
        }
    }
    return found;
}

}  // namespace idcodec::crypt
