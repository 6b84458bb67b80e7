// The typeid type: a TypeID's prefix and UUID in one varlena value (the prefix's bytes, then the UUID's 16, so a
// value takes 1 + prefix length + 16 bytes on disk), its text and binary forms, order, hashing and parts.
#include <cstring>
#include <new>
#include <optional>

#include "core/ids/time_ordered.hpp"
#include "core/ids/typeid_abbreviation.hpp"

#include "pg/entry.hpp"
#include "pg/uuids.hpp"
#include "pg/values.hpp"

extern "C" {
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "utils/sortsupport.h"
}

using namespace idcodec::time_ordered;
using namespace idcodec::pg;

namespace {

// A stored typeid as the core reads it. Values are made only by this file's input functions, which check them, so
// only a damaged value can be too short to split.
TypeId type_id_of(const struct varlena* value) {
    const std::span<const std::uint8_t> stored = bytes_of(value);
    if (stored.size() < 16) ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("damaged typeid value")));
    return split_type_id(stored);
}

struct varlena* type_id_value(const TypeId& type_id) {
    const std::size_t size = stored_type_id_size(type_id.prefix);
    auto* value = static_cast<struct varlena*>(palloc(VARHDRSZ + size));
    SET_VARSIZE(value, VARHDRSZ + size);
    store_type_id(type_id, std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(VARDATA(value)), size));
    return value;
}

// Argument `argument`, detoasted only as far as needed (short headers are read in place).
struct varlena* type_id_argument(FunctionCallInfo fcinfo, int argument) {
    return PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(argument));
}

// The order of two typeid values; detoasted copies are freed, since sorts and index builds compare every pair.
int compared(Datum a, Datum b) {
    struct varlena* a_value = PG_DETOAST_DATUM_PACKED(a);
    struct varlena* b_value = PG_DETOAST_DATUM_PACKED(b);
    const int order = compare(type_id_of(a_value), type_id_of(b_value));
    if (PointerGetDatum(a_value) != a) pfree(a_value);
    if (PointerGetDatum(b_value) != b) pfree(b_value);
    return order;
}

int compared(FunctionCallInfo fcinfo) { return compared(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)); }

// Sorts and B-tree builds call this directly, without the function manager's call of typeid_cmp.
int sort_compared(Datum a, Datum b, SortSupport) { return compared(a, b); }

// A sort's abbreviation: the keys (made against the prefixes the sort met before) and the count of distinct keys
// seen, by which it stops abbreviating when the keys do not tell the values apart.
struct Abbreviation {
    TypeIdAbbreviator keys;
    hyperLogLogState distinct_keys;
    std::int64_t values = 0;
    bool estimating = true;
};

Datum abbreviated(Datum original, SortSupport ssup) {
    auto* abbreviation = static_cast<Abbreviation*>(ssup->ssup_extra);
    struct varlena* value = PG_DETOAST_DATUM_PACKED(original);
    const std::uint64_t key = abbreviation->keys.key(type_id_of(value));
    if (PointerGetDatum(value) != original) pfree(value);
    // Compared as unsigned Datums; where a Datum holds 32 bits, the key's upper half (still in order). The count of
    // distinct keys is of what the sort compares.
    const std::uint64_t kept = sizeof(Datum) >= sizeof(std::uint64_t) ? key : key >> 32;
    ++abbreviation->values;
    if (abbreviation->estimating)
        addHyperLogLog(&abbreviation->distinct_keys,
                       hash_bytes_uint32(static_cast<uint32>(kept) ^ static_cast<uint32>(kept >> 32)));
    return static_cast<Datum>(kept);
}

// Whether to stop abbreviating, after `rows` rows: as PostgreSQL's uuid does, once 10,000 values are in, when fewer
// than one distinct key per 2,000 values (and a half) has been seen; past 100,000 distinct keys it stops counting,
// since abbreviation then pays however many rows follow. Stopping is a DEBUG2 message.
bool abbreviation_fails(int rows, SortSupport ssup) {
    auto* abbreviation = static_cast<Abbreviation*>(ssup->ssup_extra);
    if (rows < 10000 || abbreviation->values < 10000 || !abbreviation->estimating) return false;
    const double distinct = estimateHyperLogLog(&abbreviation->distinct_keys);
    if (distinct > 100000.0) {
        abbreviation->estimating = false;
        return false;
    }
    if (distinct >= static_cast<double>(abbreviation->values) / 2000.0 + 0.5) return false;
    ereport(DEBUG2,
            (errmsg_internal("typeid sort stops abbreviating after %d rows (distinct keys: %.0f)", rows, distinct)));
    return true;
}

// A prefix argument checked (22023 names the SQL function's argument).
std::string_view prefix_argument(FunctionCallInfo fcinfo, int argument) {
    const std::string_view prefix = utf8_of(PG_GETARG_TEXT_PP(argument));
    guarded([&](idcodec::StopToken) { check_type_prefix(prefix); });
    return prefix;
}

}  // namespace

// typeid_in(cstring) → typeid
IDCODEC_SQL_FUNCTION(idcodec_typeid_in) {
    const char* input = PG_GETARG_CSTRING(0);
    const std::string_view text(input, std::strlen(input));
    const std::optional<TypeId> type_id = parse_type_id(text);
    if (!type_id) return invalid_input(fcinfo, "typeid", input, quoted_length(text));
    PG_RETURN_POINTER(type_id_value(*type_id));
}

// typeid_out(typeid) → cstring
IDCODEC_SQL_FUNCTION(idcodec_typeid_out) {
    const TypeId type_id = type_id_of(type_id_argument(fcinfo, 0));
    const std::size_t length = type_id_length(type_id.prefix);
    auto* out = static_cast<char*>(palloc(length + 1));
    write_type_id(type_id.prefix, type_id.uuid, std::span<char>(out, length));
    out[length] = '\0';
    PG_RETURN_CSTRING(out);
}

// typeid_recv(internal) → typeid: the prefix's bytes, then the UUID's 16 (all the message holds)
IDCODEC_SQL_FUNCTION(idcodec_typeid_recv) {
    auto* buffer = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    const int size = buffer->len - buffer->cursor;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(pq_getmsgbytes(buffer, size));
    const std::optional<TypeId> type_id =
        load_type_id(std::span<const std::uint8_t>(bytes, static_cast<std::size_t>(size)));
    if (!type_id)
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), errmsg("invalid external typeid value"),
                        errdetail("A typeid is sent as a TypeID prefix (at most 63 lowercase letters and underscores, "
                                  "starting and ending with a letter, or none) followed by the UUID's 16 bytes.")));
    PG_RETURN_POINTER(type_id_value(*type_id));
}

// typeid_send(typeid) → bytea
IDCODEC_SQL_FUNCTION(idcodec_typeid_send) {
    const std::span<const std::uint8_t> stored = bytes_of(type_id_argument(fcinfo, 0));
    StringInfoData buffer;
    pq_begintypsend(&buffer);
    pq_sendbytes(&buffer, reinterpret_cast<const char*>(stored.data()), static_cast<int>(stored.size()));
    PG_RETURN_BYTEA_P(pq_endtypsend(&buffer));
}

// typeid_cmp(typeid, typeid) → integer
IDCODEC_SQL_FUNCTION(idcodec_typeid_cmp) { PG_RETURN_INT32(compared(fcinfo)); }

// typeid_eq(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_eq) { PG_RETURN_BOOL(compared(fcinfo) == 0); }

// typeid_ne(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_ne) { PG_RETURN_BOOL(compared(fcinfo) != 0); }

// typeid_lt(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_lt) { PG_RETURN_BOOL(compared(fcinfo) < 0); }

// typeid_le(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_le) { PG_RETURN_BOOL(compared(fcinfo) <= 0); }

// typeid_gt(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_gt) { PG_RETURN_BOOL(compared(fcinfo) > 0); }

// typeid_ge(typeid, typeid) → boolean
IDCODEC_SQL_FUNCTION(idcodec_typeid_ge) { PG_RETURN_BOOL(compared(fcinfo) >= 0); }

// typeid_sortsupport(internal) → void
IDCODEC_SQL_FUNCTION(idcodec_typeid_sortsupport) {
    auto* ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
    if (!ssup->abbreviate) {
        ssup->comparator = sort_compared;
        PG_RETURN_VOID();
    }
    // The abbreviated keys of a typeid are compared first and the values only when two keys are equal.
    // The state lives as long as the sort (its counter's registers are allocated with it).
    const MemoryContext caller_context = MemoryContextSwitchTo(ssup->ssup_cxt);
    auto* abbreviation = new (palloc(sizeof(Abbreviation))) Abbreviation;
    initHyperLogLog(&abbreviation->distinct_keys, 10);
    MemoryContextSwitchTo(caller_context);
    ssup->ssup_extra = abbreviation;
    ssup->comparator = ssup_datum_unsigned_cmp;
    ssup->abbrev_converter = abbreviated;
    ssup->abbrev_abort = abbreviation_fails;
    ssup->abbrev_full_comparator = sort_compared;
    PG_RETURN_VOID();
}

// typeid_hash(typeid) → integer
IDCODEC_SQL_FUNCTION(idcodec_typeid_hash) {
    const std::span<const std::uint8_t> stored = bytes_of(type_id_argument(fcinfo, 0));
    return hash_any(stored.data(), static_cast<int>(stored.size()));
}

// typeid_hash_extended(typeid, bigint) → bigint
IDCODEC_SQL_FUNCTION(idcodec_typeid_hash_extended) {
    const std::span<const std::uint8_t> stored = bytes_of(type_id_argument(fcinfo, 0));
    return hash_any_extended(stored.data(), static_cast<int>(stored.size()), static_cast<uint64>(PG_GETARG_INT64(1)));
}

// typeid_prefix(id typeid) → text
IDCODEC_SQL_FUNCTION(idcodec_typeid_type_prefix) {
    const TypeId type_id = type_id_of(type_id_argument(fcinfo, 0));
    PG_RETURN_TEXT_P(cstring_to_text_with_len(type_id.prefix.data(), static_cast<int>(type_id.prefix.size())));
}

// typeid_uuid(id typeid) → uuid, also the cast from typeid to uuid
IDCODEC_SQL_FUNCTION(idcodec_typeid_uuid) { return uuid_datum(type_id_of(type_id_argument(fcinfo, 0)).uuid); }

// typeid(prefix text, id uuid) → typeid
IDCODEC_SQL_FUNCTION(idcodec_typeid_make) {
    PG_RETURN_POINTER(type_id_value(TypeId{prefix_argument(fcinfo, 0), uuid_argument(fcinfo, 1)}));
}

// gen_typeid(prefix text) → typeid
IDCODEC_SQL_FUNCTION(idcodec_gen_typeid) {
    PG_RETURN_POINTER(type_id_value(TypeId{prefix_argument(fcinfo, 0), new_uuid_v7()}));
}

// typeid_larger(typeid, typeid) → typeid: the greater of two, the state of max(typeid) (detoasted, so that the
// next row does not detoast it again)
IDCODEC_SQL_FUNCTION(idcodec_typeid_larger) {
    struct varlena* a = type_id_argument(fcinfo, 0);
    struct varlena* b = type_id_argument(fcinfo, 1);
    PG_RETURN_POINTER(compare(type_id_of(a), type_id_of(b)) >= 0 ? a : b);
}

// typeid_smaller(typeid, typeid) → typeid: the lesser of two, the state of min(typeid)
IDCODEC_SQL_FUNCTION(idcodec_typeid_smaller) {
    struct varlena* a = type_id_argument(fcinfo, 0);
    struct varlena* b = type_id_argument(fcinfo, 1);
    PG_RETURN_POINTER(compare(type_id_of(a), type_id_of(b)) <= 0 ? a : b);
}
