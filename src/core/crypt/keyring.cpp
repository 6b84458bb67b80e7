#include <set>
#include <string>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
#include "core/crypt/keyring.hpp"

namespace idcodec::crypt {

namespace {

constexpr std::size_t max_name_bytes = 63;

bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r'; }
bool is_separator(char c) noexcept { return is_blank(c) || c == ','; }
bool is_name_character(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

struct Entry {
    std::string_view name;
    std::string_view hex;
};

[[noreturn]] void malformed(std::size_t line, const char* what) {
    throw Error(ErrorKind::invalid_parameter, "line " + std::to_string(line) + " " + what);
}

// Calls `visit(entry)` for every entry, in order, after checking its form (not its hex digits).
template <typename Visit>
void for_each_entry(std::string_view keyring, Visit&& visit) {
    std::size_t line = 1;
    for (std::size_t line_start = 0; line_start <= keyring.size(); ++line) {
        std::size_t line_end = keyring.find('\n', line_start);
        if (line_end == std::string_view::npos) line_end = keyring.size();
        std::string_view text = keyring.substr(line_start, line_end - line_start);
        line_start = line_end + 1;
        text = text.substr(0, text.find('#'));
        for (std::size_t pos = 0; pos < text.size();) {
            if (is_separator(text[pos])) {
                ++pos;
                continue;
            }
            const std::size_t name_start = pos;
            while (pos < text.size() && !is_separator(text[pos]) && text[pos] != '=') ++pos;
            const std::string_view name = text.substr(name_start, pos - name_start);
            while (pos < text.size() && is_blank(text[pos])) ++pos;
            if (pos == text.size() || text[pos] != '=') malformed(line, "has no '=' between a name and a key");
            ++pos;
            while (pos < text.size() && is_blank(text[pos])) ++pos;
            const std::size_t hex_start = pos;
            while (pos < text.size() && !is_separator(text[pos])) ++pos;
            const std::string_view hex = text.substr(hex_start, pos - hex_start);
            if (!is_key_name(name)) malformed(line, "has no name of 1 to 63 letters, digits and underscores");
            if (hex.size() != 32 && hex.size() != 48 && hex.size() != 64)
                malformed(line, "has no key of 32, 48 or 64 hexadecimal digits");
            visit(Entry{name, hex}, line);
        }
    }
}

}  // namespace

bool is_key_name(std::string_view name) noexcept {
    if (name.empty() || name.size() > max_name_bytes) return false;
    for (const char c : name)
        if (!is_name_character(c)) return false;
    return true;
}

void check_keyring(std::string_view keyring) {
    std::set<std::string_view> names;
    for_each_entry(keyring, [&](const Entry& entry, std::size_t line) {
        SecretBytes key(entry.hex.size() / 2);
        if (!parse_hex(entry.hex, key.bytes()))
            malformed(line, "has a key with a character that is no hexadecimal digit");
        if (!names.insert(entry.name).second) malformed(line, "repeats the name of an earlier entry");
    });
}

std::optional<SecretBytes> key_of(std::string_view keyring, std::string_view name) {
    std::optional<SecretBytes> found;
    for_each_entry(keyring, [&](const Entry& entry, std::size_t line) {
        if (entry.name != name || found) return;
        SecretBytes key(entry.hex.size() / 2);
        if (!parse_hex(entry.hex, key.bytes()))
            malformed(line, "has a key with a character that is no hexadecimal digit");
        found.emplace(std::move(key));
    });
    return found;
}

}  // namespace idcodec::crypt
