// SQL functions of snowflake IDs: generation in the pgEdge layout, on a node numbered by the setting
// idcodec.node_id, and the time, node and counter of an ID under a named or custom layout.
//
// Every process of a server takes its tickets from one 64-bit word in a file of the data directory, mapped shared:
// the word outlives backends, parallel workers and server crashes (it stays in the operating system's page cache),
// so no two IDs of a node repeat and each backend's only increase, with or without preloading.
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ids/snowflake.hpp"
#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/snowflake.hpp"
#include "pg/uuids.hpp"
#include "pg/values.hpp"

extern "C" {
#include "access/xlog.h"
#include "common/file_perm.h"
}

using namespace idcodec::snowflake;
using namespace idcodec::pg;

namespace {

int node_id = -1;  // the setting idcodec.node_id; -1 until a superuser sets it

// Relative to the data directory, every backend's working directory.
constexpr const char* state_file = "idcodec_snowflake";
constexpr std::size_t state_size = 64;

// The shared word of the last ticket, mapped on first use in this process. Only a regular file of the data
// directory itself is used (a symbolic link or anything else there is refused), as the server's other files are.
std::uint64_t& last_ticket() {
    static std::uint64_t* mapped = nullptr;
    if (mapped != nullptr) return *mapped;
    const int fd = open(state_file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, pg_file_create_mode);
    if (fd < 0)
        ereport(ERROR,
                (errcode_for_file_access(), errmsg("could not open the snowflake state file \"%s\": %m", state_file)));
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(fd);
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("the snowflake state file \"%s\" is not a regular file", state_file)));
    }
    // Blocks allocated now, not at the first write through the mapping (which would kill the process on a full
    // disk); a file already this long is left as it is, and concurrent first calls agree on it.
    const int allocated = posix_fallocate(fd, 0, state_size);
    void* address = allocated == 0 ? mmap(nullptr, state_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    const int map_errno = allocated != 0 ? allocated : errno;
    close(fd);
    if (address == MAP_FAILED) {
        errno = map_errno;
        ereport(ERROR,
                (errcode_for_file_access(), errmsg("could not map the snowflake state file \"%s\": %m", state_file)));
    }
    mapped = static_cast<std::uint64_t*>(address);
    return *mapped;
}

Layout layout_argument(FunctionCallInfo fcinfo, int argument) {
    const std::string_view name = raw_bytes(PG_GETARG_TEXT_PP(argument));
    const std::optional<Layout> layout = named_layout(name);
    if (!layout)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("unknown snowflake layout \"%.*s\"", quoted_length(name), name.data()),
                        errhint("The layouts are %.*s, or a custom one given by its epoch, unit and bit widths.",
                                static_cast<int>(layout_names.size()), layout_names.data())));
    return *layout;
}

std::int64_t unix_us_of(TimestampTz timestamp, const char* function) {
    if (TIMESTAMP_NOT_FINITE(timestamp))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("%s: an infinite timestamp has no snowflake ID", function)));
    return timestamp + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
}

// A custom layout from the arguments from `first` on: epoch timestamptz, unit interval, node_bits, counter_bits.
Layout custom_layout_arguments(FunctionCallInfo fcinfo, int first, const char* function) {
    const std::int64_t epoch = unix_us_of(PG_GETARG_TIMESTAMPTZ(first), function);
    const Interval* unit = PG_GETARG_INTERVAL_P(first + 1);
    std::int64_t unit_us = 0;
    if (unit->month != 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: the snowflake unit must be a fixed length of time, without months", function)));
    if (__builtin_mul_overflow(static_cast<std::int64_t>(unit->day), USECS_PER_DAY, &unit_us) ||
        __builtin_add_overflow(unit_us, unit->time, &unit_us))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: the snowflake unit is too long (at most 2^63 microseconds)", function)));
    Layout layout;
    guarded([&](idcodec::StopToken) {
        layout = custom_layout(epoch, unit_us, PG_GETARG_INT32(first + 2), PG_GETARG_INT32(first + 3));
    });
    return layout;
}

// The bits a custom node or counter is read from: node_bits and counter_bits at `first`.
Layout custom_widths_arguments(FunctionCallInfo fcinfo, int first) {
    Layout layout;
    guarded(
        [&](idcodec::StopToken) { layout = custom_layout(0, 1, PG_GETARG_INT32(first), PG_GETARG_INT32(first + 1)); });
    return layout;
}

std::int64_t id_argument(FunctionCallInfo fcinfo, const char* function) {
    const int64 id = PG_GETARG_INT64(0);
    if (id < 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%s: a snowflake ID is not negative (got %lld)", function, static_cast<long long>(id))));
    return id;
}

Datum timestamp_datum(std::int64_t id, const Layout& layout) {
    const std::optional<std::int64_t> us = unix_us(id, layout);
    const TimestampTz timestamp = us ? timestamptz_of_unix_us(*us) : DT_NOEND;
    if (!us || *us > PG_INT64_MAX - (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY ||
        !IS_VALID_TIMESTAMP(timestamp))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_timestamp: the time of ID %lld is out of range for timestamptz",
                               static_cast<long long>(id))));
    return TimestampTzGetDatum(timestamp);
}

Datum least_datum(TimestampTz at, const Layout& layout) {
    const std::optional<std::int64_t> id = least_id(unix_us_of(at, "snowflake_least"), layout);
    if (!id)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_least: timestamp out of range for the layout"),
                        errdetail("Its IDs hold the times from its epoch to the end of its last time unit.")));
    return Int64GetDatum(*id);
}

// The named layout of argument 1, to read a node or a counter from (Mastodon's low bits are neither).
Layout fields_layout_argument(FunctionCallInfo fcinfo, const char* function) {
    const Layout layout = layout_argument(fcinfo, 1);
    if (layout.fields == LowFields::unnamed)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: the mastodon layout holds a time and no node or counter", function),
                        errdetail("Its low 16 bits mix a hash with a sequence.")));
    return layout;
}

}  // namespace

namespace idcodec::pg {

void define_snowflake_setting() {
    DefineCustomIntVariable("idcodec.node_id", "This node's number in the snowflake IDs it generates (0 to 1023).",
                            "-1, the default, leaves it unset: snowflake_generate() then fails. No two nodes that "
                            "write the same tables may share a number.",
                            &node_id, -1, -1, 1023, PGC_SUSET, 0, nullptr, nullptr, nullptr);
}

}  // namespace idcodec::pg

// snowflake_generate() → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_generate) {
    if (node_id < 0)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("snowflake_generate: idcodec.node_id is not set"),
                 errdetail("Every ID holds the number of the node that made it, 0 to 1023."),
                 errhint("A superuser gives each node its own: LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = 1; "
                         "SELECT pg_reload_conf();")));
    // A standby carries its primary's data directory and settings: IDs made there would repeat the primary's.
    if (RecoveryInProgress())
        ereport(ERROR, (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                        errmsg("snowflake_generate: cannot generate IDs during recovery"),
                        errdetail("A standby holds its primary's node number and would repeat its IDs."),
                        errhint("Generate IDs on the primary; a promoted standby generates again.")));
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t unix_ms = static_cast<std::int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
    const std::int64_t epoch_ms = pgedge.epoch_unix_us / us_per_ms;
    if (unix_ms < epoch_ms)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_generate: the system clock is before 2023-01-01, where the IDs' time "
                               "begins")));
    std::uint64_t& shared = last_ticket();
    const std::optional<std::uint64_t> ticket =
        TicketCounter(shared).take(static_cast<std::uint64_t>(unix_ms - epoch_ms), pgedge);
    if (!ticket && !holds_ticket(__atomic_load_n(&shared, __ATOMIC_RELAXED), pgedge))
        ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                        errmsg("the snowflake state file \"%s\" holds a value no ID can have", state_file),
                        errhint("Stop the server, remove the file and start it again: IDs then start from the "
                                "clock.")));
    if (!ticket)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake_generate: the IDs' 41 bits of milliseconds since 2023 are spent")));
    PG_RETURN_INT64(compose(*ticket, static_cast<std::uint32_t>(node_id), pgedge));
}

// snowflake_timestamp(id bigint, layout text) → timestamptz
IDCODEC_SQL_FUNCTION(idcodec_snowflake_timestamp) {
    return timestamp_datum(id_argument(fcinfo, "snowflake_timestamp"), layout_argument(fcinfo, 1));
}

// snowflake_timestamp(id bigint, epoch timestamptz, unit interval, node_bits int, counter_bits int) → timestamptz
IDCODEC_SQL_FUNCTION(idcodec_snowflake_timestamp_custom) {
    return timestamp_datum(id_argument(fcinfo, "snowflake_timestamp"),
                           custom_layout_arguments(fcinfo, 1, "snowflake_timestamp"));
}

// snowflake_node(id bigint, layout text) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_node) {
    const std::int64_t id = id_argument(fcinfo, "snowflake_node");
    PG_RETURN_INT32(static_cast<int32>(node(id, fields_layout_argument(fcinfo, "snowflake_node"))));
}

// snowflake_node(id bigint, node_bits int, counter_bits int) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_node_custom) {
    const std::int64_t id = id_argument(fcinfo, "snowflake_node");
    PG_RETURN_INT32(static_cast<int32>(node(id, custom_widths_arguments(fcinfo, 1))));
}

// snowflake_counter(id bigint, layout text) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_counter) {
    const std::int64_t id = id_argument(fcinfo, "snowflake_counter");
    PG_RETURN_INT32(static_cast<int32>(counter(id, fields_layout_argument(fcinfo, "snowflake_counter"))));
}

// snowflake_counter(id bigint, node_bits int, counter_bits int) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_counter_custom) {
    const std::int64_t id = id_argument(fcinfo, "snowflake_counter");
    PG_RETURN_INT32(static_cast<int32>(counter(id, custom_widths_arguments(fcinfo, 1))));
}

// snowflake_least(at timestamptz, layout text) → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_least) {
    return least_datum(PG_GETARG_TIMESTAMPTZ(0), layout_argument(fcinfo, 1));
}

// snowflake_least(at timestamptz, epoch timestamptz, unit interval, node_bits int, counter_bits int) → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_least_custom) {
    return least_datum(PG_GETARG_TIMESTAMPTZ(0), custom_layout_arguments(fcinfo, 1, "snowflake_least"));
}
