// UUID-sized values (uuid, ulid) and their times: from PostgreSQL's form to the core's and back.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/ids/time_ordered.hpp"

#include "pg/postgres.hpp"

namespace idcodec::pg {

using time_ordered::Uuid;

// Argument `argument` (uuid or ulid: the same 16 bytes).
inline Uuid uuid_argument(FunctionCallInfo fcinfo, int argument) {
    Uuid uuid;
    const pg_uuid_t* value = PG_GETARG_UUID_P(argument);
    std::copy(std::begin(value->data), std::end(value->data), uuid.begin());
    return uuid;
}

// A uuid or ulid result.
inline Datum uuid_datum(const Uuid& uuid) {
    auto* value = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
    std::copy(uuid.begin(), uuid.end(), value->data);
    return UUIDPGetDatum(value);
}

// Microseconds since 1970 as a timestamptz (which counts from 2000).
inline TimestampTz timestamptz_of_unix_us(std::int64_t unix_us) {
    return unix_us - (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
}

// The millisecond since 1970 a timestamptz falls in (rounded down): an error (22008) names the SQL function when it
// is infinite or outside what 48 bits of milliseconds hold, 1970-01-01 to the millisecond 10889-08-02 05:31:50.655.
std::uint64_t unix_ms_of(TimestampTz timestamp, const char* function);

// A new version 7 UUID, its time after the last one's in this backend (a parallel worker has a clock of its own),
// or that time moved by `shift`.
Uuid new_uuid_v7(const Interval* shift = nullptr);

}  // namespace idcodec::pg
