// SQL functions that read snowflake IDs: the time, node and counter of an ID under a named or custom layout, and the
// least ID of a time.
#include <optional>

#include "core/ids/snowflake.hpp"
#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/uuids.hpp"
#include "pg/values.hpp"

using namespace idcodec::snowflake;
using namespace idcodec::pg;

namespace {

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

// Argument 0, an ID of the layout: non-negative, unless the layout uses the sign bit too.
std::int64_t id_argument(FunctionCallInfo fcinfo, const Layout& layout, const char* function) {
    const int64 id = PG_GETARG_INT64(0);
    if (!holds_id(id, layout))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%s: a snowflake ID is not negative (got %lld)", function, static_cast<long long>(id)),
                        errdetail("Of the named layouts, only instagram's IDs use the sign bit.")));
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

enum class LayoutGiven { by_name, by_widths };

// The node or the counter (`field`) of the ID of argument 0, under a named layout (argument 1) or custom widths
// (arguments 1 and 2).
template <std::uint32_t (*field)(std::int64_t, const Layout&)>
Datum low_field_datum(FunctionCallInfo fcinfo, LayoutGiven given, const char* function) {
    const Layout layout =
        given == LayoutGiven::by_name ? fields_layout_argument(fcinfo, function) : custom_widths_arguments(fcinfo, 1);
    PG_RETURN_INT32(static_cast<int32>(field(id_argument(fcinfo, layout, function), layout)));
}

}  // namespace

// snowflake_timestamp(id bigint, layout text) → timestamptz
IDCODEC_SQL_FUNCTION(idcodec_snowflake_timestamp) {
    const Layout layout = layout_argument(fcinfo, 1);
    return timestamp_datum(id_argument(fcinfo, layout, "snowflake_timestamp"), layout);
}

// snowflake_timestamp(id bigint, epoch timestamptz, unit interval, node_bits int, counter_bits int) → timestamptz
IDCODEC_SQL_FUNCTION(idcodec_snowflake_timestamp_custom) {
    const Layout layout = custom_layout_arguments(fcinfo, 1, "snowflake_timestamp");
    return timestamp_datum(id_argument(fcinfo, layout, "snowflake_timestamp"), layout);
}

// snowflake_node(id bigint, layout text) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_node) {
    return low_field_datum<node>(fcinfo, LayoutGiven::by_name, "snowflake_node");
}

// snowflake_node(id bigint, node_bits int, counter_bits int) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_node_custom) {
    return low_field_datum<node>(fcinfo, LayoutGiven::by_widths, "snowflake_node");
}

// snowflake_counter(id bigint, layout text) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_counter) {
    return low_field_datum<counter>(fcinfo, LayoutGiven::by_name, "snowflake_counter");
}

// snowflake_counter(id bigint, node_bits int, counter_bits int) → integer
IDCODEC_SQL_FUNCTION(idcodec_snowflake_counter_custom) {
    return low_field_datum<counter>(fcinfo, LayoutGiven::by_widths, "snowflake_counter");
}

// snowflake_least(at timestamptz, layout text) → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_least) {
    return least_datum(PG_GETARG_TIMESTAMPTZ(0), layout_argument(fcinfo, 1));
}

// snowflake_least(at timestamptz, epoch timestamptz, unit interval, node_bits int, counter_bits int) → bigint
IDCODEC_SQL_FUNCTION(idcodec_snowflake_least_custom) {
    return least_datum(PG_GETARG_TIMESTAMPTZ(0), custom_layout_arguments(fcinfo, 1, "snowflake_least"));
}
