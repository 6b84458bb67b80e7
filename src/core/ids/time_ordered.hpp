// Time-ordered public IDs over a UUID's 16 bytes: TypeID (a type prefix and the UUID in lowercase Crockford base32),
// ULID (the same 26 digits in uppercase, its first 48 bits a millisecond time), and the UUID version 7 layout both
// are made from.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/ids/crockford.hpp"

namespace idcodec::time_ordered {

using Uuid = std::array<std::uint8_t, 16>;

// A TypeID prefix: at most 63 lowercase ASCII letters and underscores, starting and ending with a letter, or empty.
inline constexpr std::size_t max_prefix_length = 63;
bool is_type_prefix(std::string_view prefix) noexcept;

// Throws Error(invalid_parameter) for a prefix the specification forbids (the message quotes at most its first
// bytes).
void check_type_prefix(std::string_view prefix);

// The TypeID of a valid prefix: `prefix`_suffix, or the suffix alone for an empty prefix, into exactly
// type_id_length(prefix) characters.
constexpr std::size_t type_id_length(std::string_view prefix) noexcept {
    return prefix.size() + (prefix.empty() ? 0 : 1) + crockford::text_length;
}
void write_type_id(std::string_view prefix, const Uuid& uuid, std::span<char> out) noexcept;

struct TypeId {
    std::string_view prefix;  // within the text parsed
    Uuid uuid;
};
// Nothing for anything but a TypeID: the suffix follows the last underscore (a prefix may hold underscores), and
// there is an underscore exactly when the prefix is not empty.
std::optional<TypeId> parse_type_id(std::string_view text) noexcept;

// The ULID of a UUID's bytes: 26 uppercase digits.
void ulid(const Uuid& uuid, std::span<char, crockford::text_length> out) noexcept;
// Nothing for anything but 26 digits (either case, i and l read as 1, o as 0) whose value fits in 128 bits.
std::optional<Uuid> parse_ulid(std::string_view text) noexcept;

// What the ulid type reads: a ULID, or a UUID's standard text (8-4-4-4-12 hex digits, either case) for the same
// bytes, so a UUID literal compared with a ulid column means what it says.
std::optional<Uuid> parse_ulid_or_uuid(std::string_view text) noexcept;

// A TypeID as the typeid type stores it: the prefix's bytes, then the UUID's 16 (the prefix's length is the
// stored size less 16).
constexpr std::size_t stored_type_id_size(std::string_view prefix) noexcept { return prefix.size() + 16; }
void store_type_id(const TypeId& type_id, std::span<std::uint8_t> out) noexcept;
// Nothing unless `stored` is a valid prefix followed by 16 bytes (what binary input must check).
std::optional<TypeId> load_type_id(std::span<const std::uint8_t> stored) noexcept;
// A stored value split into its prefix and UUID, unchecked (what comparisons and hashing read, on every row): the
// value must be one load_type_id accepts, or at least 16 bytes long.
TypeId split_type_id(std::span<const std::uint8_t> stored) noexcept;

// The typeid order: by prefix (bytes, a shorter prefix before a longer one it begins), then by UUID (for version 7
// UUIDs, by time). Negative, zero or positive.
int compare(const TypeId& a, const TypeId& b) noexcept;

// The 48-bit big-endian millisecond time the bytes begin with (a ULID's time, a version 7 UUID's).
std::uint64_t unix_ms(const Uuid& uuid) noexcept;
inline constexpr std::uint64_t max_unix_ms = (std::uint64_t{1} << 48) - 1;

// The version of a UUID of the RFC 9562 variant (its variant bits 10); nothing for other variants.
std::optional<int> rfc_version(const Uuid& uuid) noexcept;

// The time a UUID holds, in microseconds since 1970: a version 1 UUID's 100 ns count since 1582-10-15 (rounded
// down to the microsecond), a version 7 UUID's millisecond; nothing for other versions and variants.
std::optional<std::int64_t> unix_us(const Uuid& uuid) noexcept;

// The least and greatest version 7 UUID of a millisecond (`unix_ms` at most max_unix_ms): every other bit 0 or 1.
Uuid least_v7(std::uint64_t unix_ms) noexcept;
Uuid greatest_v7(std::uint64_t unix_ms) noexcept;
// The least and greatest ULID of a millisecond.
Uuid least_ulid(std::uint64_t unix_ms) noexcept;
Uuid greatest_ulid(std::uint64_t unix_ms) noexcept;

// A version 7 UUID: `unix_ms` (48 bits), then the version, `sub_ms` (12 bits: the fraction of the millisecond, in
// 1/4096), the variant and 62 bits of `random`.
Uuid uuid_v7(std::uint64_t unix_ms, std::uint16_t sub_ms, std::span<const std::uint8_t, 8> random) noexcept;

// The version 7 UUID of a millisecond since 1970 (at most max_unix_ms) and the nanoseconds into it (below
// 1,000,000), whose fraction in 1/4096 ms is rounded down. Split, not nanoseconds since 1970: those pass 2^63 in
// 2262, long before 48 bits of milliseconds end.
Uuid uuid_v7_at(std::uint64_t unix_ms, std::uint32_t ns_in_ms, std::span<const std::uint8_t, 8> random) noexcept;

// The times of one process's successive version 7 UUIDs, strictly increasing by at least one step of the 12-bit
// fraction: a clock reading less than a step after the last time becomes the last time plus a step (as PostgreSQL
// 18's uuidv7() does), so each UUID's millisecond and fraction exceed the previous one's whatever the clock does
// (readings a few nanoseconds apart, a clock set back). A step is one nanosecond more than 1/4096 ms: any two times
// that far apart have different fractions.
class V7Clock {
public:
    static constexpr std::int64_t step_ns = 1'000'000 / 4096 + 1;

    std::int64_t next(std::int64_t reading_ns) noexcept {
        last_ns_ = reading_ns < last_ns_ + step_ns ? last_ns_ + step_ns : reading_ns;
        return last_ns_;
    }

private:
    std::int64_t last_ns_ = 0;
};

}  // namespace idcodec::time_ordered
