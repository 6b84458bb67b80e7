#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/time_ordered.hpp"

namespace idcodec::time_ordered {

namespace {

bool is_prefix_letter(char c) noexcept { return c >= 'a' && c <= 'z'; }

std::optional<Uuid> decoded(std::string_view text, crockford::Reading reading) noexcept {
    Uuid uuid;
    if (!crockford::decode(text, reading, uuid)) return std::nullopt;
    return uuid;
}

}  // namespace

bool is_type_prefix(std::string_view prefix) noexcept {
    if (prefix.empty()) return true;
    if (prefix.size() > max_prefix_length || !is_prefix_letter(prefix.front()) || !is_prefix_letter(prefix.back()))
        return false;
    for (const char c : prefix)
        if (!is_prefix_letter(c) && c != '_') return false;
    return true;
}

void check_type_prefix(std::string_view prefix) {
    if (is_type_prefix(prefix)) return;
    const std::string_view shown = utf8::clip(prefix, quoted_text_bytes);
    throw Error(ErrorKind::invalid_parameter,
                "TypeID prefix \"" + std::string(shown) + (shown.size() < prefix.size() ? "...\"" : "\"") +
                    " must be at most 63 lowercase letters a-z and underscores, starting and ending with a letter");
}

void write_type_id(std::string_view prefix, const Uuid& uuid, std::span<char> out) noexcept {
    const std::size_t separator = prefix.empty() ? 0 : 1;
    prefix.copy(out.data(), prefix.size());
    if (separator != 0) out[prefix.size()] = '_';
    crockford::encode(
        uuid, crockford::Case::lower,
        std::span<char, crockford::text_length>(out.data() + prefix.size() + separator, crockford::text_length));
}

std::optional<TypeId> parse_type_id(std::string_view text) noexcept {
    // The suffix is the last 26 characters; before it, either nothing or a separator after a non-empty prefix. (A
    // suffix holds no underscore, so this separator is the last one, as the specification splits.)
    const std::size_t suffix_at = text.size() >= crockford::text_length ? text.size() - crockford::text_length : 0;
    const bool has_prefix = suffix_at != 0;
    if (text.size() < crockford::text_length || (has_prefix && (suffix_at < 2 || text[suffix_at - 1] != '_')))
        return std::nullopt;
    const std::string_view prefix = has_prefix ? text.substr(0, suffix_at - 1) : std::string_view();
    if (!is_type_prefix(prefix)) return std::nullopt;
    const std::optional<Uuid> uuid = decoded(text.substr(suffix_at), crockford::Reading::strict);
    if (!uuid) return std::nullopt;
    return TypeId{prefix, *uuid};
}

void ulid(const Uuid& uuid, std::span<char, crockford::text_length> out) noexcept {
    crockford::encode(uuid, crockford::Case::upper, out);
}

std::optional<Uuid> parse_ulid(std::string_view text) noexcept { return decoded(text, crockford::Reading::lenient); }

std::uint64_t unix_ms(const Uuid& uuid) noexcept {
    std::uint64_t ms = 0;
    for (std::size_t k = 0; k < 6; ++k) ms = ms << 8 | uuid[k];
    return ms;
}

Uuid uuid_v7(std::uint64_t unix_ms, std::uint16_t sub_ms, std::span<const std::uint8_t, 8> random) noexcept {
    Uuid uuid;
    for (std::size_t k = 0; k < 6; ++k) uuid[k] = static_cast<std::uint8_t>(unix_ms >> (8 * (5 - k)));
    uuid[6] = static_cast<std::uint8_t>(0x70 | ((sub_ms >> 8) & 0x0f));
    uuid[7] = static_cast<std::uint8_t>(sub_ms);
    uuid[8] = static_cast<std::uint8_t>(0x80 | (random[0] & 0x3f));
    for (std::size_t k = 1; k < 8; ++k) uuid[8 + k] = random[k];
    return uuid;
}

Uuid uuid_v7_at(std::int64_t unix_ns, std::span<const std::uint8_t, 8> random) noexcept {
    const auto sub_ms = static_cast<std::uint16_t>((unix_ns % 1'000'000) * 4096 / 1'000'000);
    return uuid_v7(static_cast<std::uint64_t>(unix_ns / 1'000'000), sub_ms, random);
}

}  // namespace idcodec::time_ordered
