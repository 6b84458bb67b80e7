// SQL functions of time-ordered public IDs: TypeID and ULID text of a UUID and back, the generation of version 7
// UUIDs (and of TypeIDs and ULIDs from them), monotonic within a backend, and the times UUIDs hold.
#include <ctime>
#include <optional>

#include "core/common/random_block.hpp"
#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/uuids.hpp"
#include "pg/values.hpp"

using namespace idcodec::time_ordered;
using namespace idcodec::pg;

namespace {

constexpr std::size_t ulid_length = idcodec::crockford::text_length;

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
    const std::optional<std::string_view> argument = id_argument(fcinfo, 0);
    return argument ? parse_type_id(*argument) : std::nullopt;
}

std::optional<Uuid> ulid_argument(FunctionCallInfo fcinfo) {
    const std::optional<std::string_view> argument = id_argument(fcinfo, 0);
    return argument ? parse_ulid(*argument) : std::nullopt;
}

constexpr std::int64_t unix_to_postgres_epoch_us = (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
constexpr TimestampTz least_v7_time = -unix_to_postgres_epoch_us;
constexpr TimestampTz greatest_v7_time = static_cast<TimestampTz>(max_unix_ms) * 1000 - unix_to_postgres_epoch_us;

[[noreturn]] void time_out_of_range(const char* function) {
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("%s: timestamp out of range for UUID version 7 and ULID", function),
                    errdetail("They hold the milliseconds from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655 UTC.")));
    pg_unreachable();
}

bool interval_is_finite([[maybe_unused]] const Interval* interval) {
#if PG_VERSION_NUM >= 170000
    return !INTERVAL_NOT_FINITE(interval);
#else
    return true;  // infinite intervals came with PostgreSQL 17
#endif
}

// 4 KB of randomness, 512 UUIDs' worth, drawn at a time: generating then costs less than gen_random_uuid()'s call
// into the CSPRNG for every value. The block belongs to the backend that filled it (MyProcPid).
idcodec::RandomBlock<4096> random_block;

}  // namespace

namespace idcodec::pg {

std::uint64_t unix_ms_of(TimestampTz timestamp, const char* function) {
    // the whole last millisecond is in; infinity lies outside the bounds too
    if (timestamp < least_v7_time || timestamp > greatest_v7_time + 999) time_out_of_range(function);
    return static_cast<std::uint64_t>(timestamp + unix_to_postgres_epoch_us) / 1000;
}

Uuid new_uuid_v7(const Interval* shift) {
    static V7Clock clock;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t ns = clock.next(static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
    std::int64_t unix_us = ns / 1000;
    if (shift != nullptr) {
        // as PostgreSQL 18's uuidv7(shift): the microsecond moved by timestamptz arithmetic (months and days by the
        // calendar of the session's time zone), the nanoseconds below it kept
        if (!interval_is_finite(shift))
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("uuid_generate_v7: interval out of range for UUID version 7")));
        const TimestampTz shifted = DatumGetTimestampTz(DirectFunctionCall2(
            timestamptz_pl_interval, TimestampTzGetDatum(timestamptz_of_unix_us(unix_us)), IntervalPGetDatum(shift)));
        // PostgreSQL 18's bounds: its last millisecond's first microsecond at the latest
        if (shifted < least_v7_time || shifted > greatest_v7_time) time_out_of_range("uuid_generate_v7");
        unix_us = shifted + unix_to_postgres_epoch_us;
    }
    std::uint8_t random[8];
    if (!random_block.take(random, MyProcPid, [](std::span<std::uint8_t> block) noexcept {
            return pg_strong_random(block.data(), block.size());
        }))
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
    // in microseconds, which cannot overflow up to the year 10889 (nanoseconds since 1970 pass 2^63 in 2262)
    return uuid_v7_at(static_cast<std::uint64_t>(unix_us / 1000),
                      static_cast<std::uint32_t>(unix_us % 1000 * 1000 + ns % 1000), random);
}

}  // namespace idcodec::pg

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
    PG_RETURN_TIMESTAMPTZ(timestamptz_of_unix_us(static_cast<std::int64_t>(unix_ms(*uuid)) * 1000));
}

// ulid_timestamp(id ulid) → timestamptz, also the cast from ulid to timestamptz
IDCODEC_SQL_FUNCTION(idcodec_ulid_type_timestamp) {
    PG_RETURN_TIMESTAMPTZ(timestamptz_of_unix_us(static_cast<std::int64_t>(unix_ms(uuid_argument(fcinfo, 0))) * 1000));
}

// uuid_generate_v7() → uuid
IDCODEC_SQL_FUNCTION(idcodec_uuid_generate_v7) { return uuid_datum(new_uuid_v7()); }

// uuid_generate_v7(shift interval) → uuid
IDCODEC_SQL_FUNCTION(idcodec_uuid_generate_v7_shifted) { return uuid_datum(new_uuid_v7(PG_GETARG_INTERVAL_P(0))); }

// typeid_generate(prefix text) → text
IDCODEC_SQL_FUNCTION(idcodec_typeid_generate) {
    PG_RETURN_TEXT_P(type_id_text(utf8_of(PG_GETARG_TEXT_PP(0)), new_uuid_v7()));
}

// ulid_generate() → text
IDCODEC_SQL_FUNCTION(idcodec_ulid_generate) { PG_RETURN_TEXT_P(ulid_text(new_uuid_v7())); }

// gen_ulid() → ulid
IDCODEC_SQL_FUNCTION(idcodec_gen_ulid) { return uuid_datum(new_uuid_v7()); }

// uuid_timestamp(id uuid) → timestamptz; NULL unless a version 1 or 7 UUID of the RFC 9562 variant
IDCODEC_SQL_FUNCTION(idcodec_uuid_timestamp) {
    const std::optional<std::int64_t> unix_us = idcodec::time_ordered::unix_us(uuid_argument(fcinfo, 0));
    if (!unix_us) PG_RETURN_NULL();
    PG_RETURN_TIMESTAMPTZ(timestamptz_of_unix_us(*unix_us));
}

// uuid_version(id uuid) → smallint; NULL unless of the RFC 9562 variant
IDCODEC_SQL_FUNCTION(idcodec_uuid_version) {
    const std::optional<int> version = rfc_version(uuid_argument(fcinfo, 0));
    if (!version) PG_RETURN_NULL();
    PG_RETURN_INT16(static_cast<int16>(*version));
}

// uuid_v7_least(at timestamptz) → uuid
IDCODEC_SQL_FUNCTION(idcodec_uuid_v7_least) {
    return uuid_datum(least_v7(unix_ms_of(PG_GETARG_TIMESTAMPTZ(0), "uuid_v7_least")));
}

// uuid_v7_greatest(at timestamptz) → uuid
IDCODEC_SQL_FUNCTION(idcodec_uuid_v7_greatest) {
    return uuid_datum(greatest_v7(unix_ms_of(PG_GETARG_TIMESTAMPTZ(0), "uuid_v7_greatest")));
}

// ulid_least(at timestamptz) → ulid, also the cast from timestamptz to ulid
IDCODEC_SQL_FUNCTION(idcodec_ulid_least) {
    return uuid_datum(least_ulid(unix_ms_of(PG_GETARG_TIMESTAMPTZ(0), "ulid_least")));
}

// ulid_greatest(at timestamptz) → ulid
IDCODEC_SQL_FUNCTION(idcodec_ulid_greatest) {
    return uuid_datum(greatest_ulid(unix_ms_of(PG_GETARG_TIMESTAMPTZ(0), "ulid_greatest")));
}
