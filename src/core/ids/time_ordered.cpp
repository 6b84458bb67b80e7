#include <algorithm>
#include <cstring>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
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

std::optional<Uuid> parse_ulid_or_uuid(std::string_view text) noexcept {
    if (text.size() == crockford::text_length) return parse_ulid(text);
    // 8-4-4-4-12: the hyphens in place, 32 hex digits between them
    constexpr std::size_t uuid_text_length = 36;
    if (text.size() != uuid_text_length || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-')
        return std::nullopt;
    char digits[32];
    std::size_t n = 0;
    for (const char c : text)
        if (c != '-') {
            if (n == sizeof digits) return std::nullopt;
            digits[n++] = c;
        }
    Uuid uuid;
    if (n != sizeof digits || !parse_hex(std::string_view(digits, n), uuid)) return std::nullopt;
    return uuid;
}

void store_type_id(const TypeId& type_id, std::span<std::uint8_t> out) noexcept {
    // std::copy, not memcpy: an empty prefix may have no data pointer at all
    const auto after_prefix = std::copy(type_id.prefix.begin(), type_id.prefix.end(), out.begin());
    std::copy(type_id.uuid.begin(), type_id.uuid.end(), after_prefix);
}

TypeId split_type_id(std::span<const std::uint8_t> stored) noexcept {
    const std::size_t prefix_size = stored.size() - 16;
    TypeId type_id{std::string_view(reinterpret_cast<const char*>(stored.data()), prefix_size), {}};
    std::copy(stored.begin() + static_cast<std::ptrdiff_t>(prefix_size), stored.end(), type_id.uuid.begin());
    return type_id;
}

std::optional<TypeId> load_type_id(std::span<const std::uint8_t> stored) noexcept {
    if (stored.size() < 16 || stored.size() > stored_type_id_size(std::string_view()) + max_prefix_length)
        return std::nullopt;
    const TypeId type_id = split_type_id(stored);
    if (!is_type_prefix(type_id.prefix)) return std::nullopt;
    return type_id;
}

int compare(const TypeId& a, const TypeId& b) noexcept {
    if (const int by_prefix = a.prefix.compare(b.prefix); by_prefix != 0) return by_prefix;
    return std::memcmp(a.uuid.data(), b.uuid.data(), a.uuid.size());
}

std::uint64_t unix_ms(const Uuid& uuid) noexcept {
    std::uint64_t ms = 0;
    for (std::size_t k = 0; k < 6; ++k) ms = ms << 8 | uuid[k];
    return ms;
}

std::optional<int> rfc_version(const Uuid& uuid) noexcept {
    if ((uuid[8] & 0xc0) != 0x80) return std::nullopt;
    return uuid[6] >> 4;
}

std::optional<std::int64_t> unix_us(const Uuid& uuid) noexcept {
    const std::optional<int> version = rfc_version(uuid);
    if (version == 7) return static_cast<std::int64_t>(unix_ms(uuid)) * 1000;
    if (version != 1) return std::nullopt;
    // time_low (bytes 0-3), time_mid (4-5) and the 12 bits of time_hi (6-7) after the version, reassembled
    const std::uint64_t ticks = std::uint64_t{uuid[6] & 0x0fu} << 56 | std::uint64_t{uuid[7]} << 48 |
                                std::uint64_t{uuid[4]} << 40 | std::uint64_t{uuid[5]} << 32 |
                                std::uint64_t{uuid[0]} << 24 | std::uint64_t{uuid[1]} << 16 |
                                std::uint64_t{uuid[2]} << 8 | uuid[3];
    // 141,427 days from 1582-10-15 (the Gregorian reform) to 1970-01-01
    constexpr std::int64_t gregorian_to_unix_us = std::int64_t{141'427} * 86'400 * 1'000'000;
    return static_cast<std::int64_t>(ticks / 10) - gregorian_to_unix_us;
}

namespace {

Uuid with_time(std::uint64_t unix_ms, std::uint8_t rest) noexcept {
    Uuid uuid;
    uuid.fill(rest);
    for (std::size_t k = 0; k < 6; ++k) uuid[k] = static_cast<std::uint8_t>(unix_ms >> (8 * (5 - k)));
    return uuid;
}

}  // namespace

Uuid least_v7(std::uint64_t unix_ms) noexcept {
    Uuid uuid = with_time(unix_ms, 0x00);
    uuid[6] = 0x70;
    uuid[8] = 0x80;
    return uuid;
}

Uuid greatest_v7(std::uint64_t unix_ms) noexcept {
    Uuid uuid = with_time(unix_ms, 0xff);
    uuid[6] = 0x7f;
    uuid[8] = 0xbf;
    return uuid;
}

Uuid least_ulid(std::uint64_t unix_ms) noexcept { return with_time(unix_ms, 0x00); }

Uuid greatest_ulid(std::uint64_t unix_ms) noexcept { return with_time(unix_ms, 0xff); }

Uuid uuid_v7(std::uint64_t unix_ms, std::uint16_t sub_ms, std::span<const std::uint8_t, 8> random) noexcept {
    Uuid uuid;
    for (std::size_t k = 0; k < 6; ++k) uuid[k] = static_cast<std::uint8_t>(unix_ms >> (8 * (5 - k)));
    uuid[6] = static_cast<std::uint8_t>(0x70 | ((sub_ms >> 8) & 0x0f));
    uuid[7] = static_cast<std::uint8_t>(sub_ms);
    uuid[8] = static_cast<std::uint8_t>(0x80 | (random[0] & 0x3f));
    for (std::size_t k = 1; k < 8; ++k) uuid[8 + k] = random[k];
    return uuid;
}

Uuid uuid_v7_at(std::uint64_t unix_ms, std::uint32_t ns_in_ms, std::span<const std::uint8_t, 8> random) noexcept {
    return uuid_v7(unix_ms, static_cast<std::uint16_t>(std::uint64_t{ns_in_ms} * 4096 / 1'000'000), random);
}

}  // namespace idcodec::time_ordered
