// SQL functions of time-ordered public IDs: TypeID and ULID text of a UUID and back, and the generation of version 7
// UUIDs (and of TypeIDs and ULIDs from them), monotonic within a backend.
#include <ctime>
#include <optional>

#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/values.hpp"

extern "C" {
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

using namespace idcodec::time_ordered;
using namespace idcodec::pg;

namespace {

constexpr std::size_t ulid_length = idcodec::crockford::text_length;

Uuid uuid_argument(FunctionCallInfo fcinfo, int argument) {
    Uuid uuid;
    const pg_uuid_t* value = PG_GETARG_UUID_P(argument);
    std::copy(std::begin(value->data), std::end(value->data), uuid.begin());
    return uuid;
}

Datum uuid_datum(const Uuid& uuid) {
    auto* value = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
    std::copy(uuid.begin(), uuid.end(), value->data);
    return UUIDPGetDatum(value);
}

text* type_id_text(std::string_view prefix, const Uuid& uuid) {
    guarded([&](idcodec::StopToken) { check_type_prefix(prefix); });
    return ascii_text(type_id_length(prefix), [&](std::span<char> out) noexcept { write_type_id(prefix, uuid, out); });
}

text* ulid_text(const Uuid& uuid) {
    return ascii_text(ulid_length, [&](std::span<char> out) noexcept {
        ulid(uuid, std::span<char, ulid_length>(out.data(), ulid_length));
    });
}

// A TypeID argument parsed; nothing when it is no TypeID (or holds a character UTF-8 cannot represent).
std::optional<TypeId> type_id_argument(FunctionCallInfo fcinfo) {
    const std::optional<std::string_view> argument = id_as_utf8(PG_GETARG_TEXT_PP(0));
    return argument ? parse_type_id(*argument) : std::nullopt;
}

std::optional<Uuid> ulid_argument(FunctionCallInfo fcinfo) {
    const std::optional<std::string_view> argument = id_as_utf8(PG_GETARG_TEXT_PP(0));
    return argument ? parse_ulid(*argument) : std::nullopt;
}

// A new version 7 UUID, its time after the last one's in this backend (a parallel worker has a clock of its own).
Uuid new_uuid_v7() {
    static V7Clock clock;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t ns = clock.next(static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
    std::uint8_t random[8];
    if (!pg_strong_random(random, sizeof random))
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
    return uuid_v7_at(ns, random);
}

}  // namespace

// typeid_encode(prefix text, id uuid) → text
IDCODEC_SQL_FUNCTION(idcodec_typeid_encode) {
    PG_RETURN_TEXT_P(type_id_text(utf8_of(PG_GETARG_TEXT_PP(0)), uuid_argument(fcinfo, 1)));
}

// typeid_decode(typeid text) → uuid; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_typeid_decode) {
    const std::optional<TypeId> parsed = type_id_argument(fcinfo);
    if (!parsed) PG_RETURN_NULL();
    return uuid_datum(parsed->uuid);
}

// typeid_prefix(typeid text) → text; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_typeid_prefix) {
    const std::optional<TypeId> parsed = type_id_argument(fcinfo);
    if (!parsed) PG_RETURN_NULL();
    PG_RETURN_TEXT_P(cstring_to_text_with_len(parsed->prefix.data(), static_cast<int>(parsed->prefix.size())));
}

// ulid_encode(id uuid) → text
IDCODEC_SQL_FUNCTION(idcodec_ulid_encode) { PG_RETURN_TEXT_P(ulid_text(uuid_argument(fcinfo, 0))); }

// ulid_decode(ulid text) → uuid; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_ulid_decode) {
    const std::optional<Uuid> uuid = ulid_argument(fcinfo);
    if (!uuid) PG_RETURN_NULL();
    return uuid_datum(*uuid);
}

// ulid_timestamp(ulid text) → timestamptz; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_ulid_timestamp) {
    const std::optional<Uuid> uuid = ulid_argument(fcinfo);
    if (!uuid) PG_RETURN_NULL();
    // 48 bits of milliseconds reach the year 10889, well within timestamptz
    const auto unix_us = static_cast<TimestampTz>(unix_ms(*uuid)) * 1000;
    PG_RETURN_TIMESTAMPTZ(unix_us - (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY);
}

// uuid_generate_v7() → uuid
IDCODEC_SQL_FUNCTION(idcodec_uuid_generate_v7) { return uuid_datum(new_uuid_v7()); }

// typeid_generate(prefix text) → text
IDCODEC_SQL_FUNCTION(idcodec_typeid_generate) {
    PG_RETURN_TEXT_P(type_id_text(utf8_of(PG_GETARG_TEXT_PP(0)), new_uuid_v7()));
}

// ulid_generate() → text
IDCODEC_SQL_FUNCTION(idcodec_ulid_generate) { PG_RETURN_TEXT_P(ulid_text(new_uuid_v7())); }
