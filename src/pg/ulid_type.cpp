// The text form of the ulid type. Everything else of the type (binary I/O, comparison, hashing, sort support) is
// uuid's own code, declared for ulid in SQL: the two types hold the same 16 bytes in the same order.
#include <cstring>
#include <optional>

#include "core/ids/time_ordered.hpp"

#include "pg/entry.hpp"
#include "pg/uuids.hpp"
#include "pg/values.hpp"

using namespace idcodec::time_ordered;
using namespace idcodec::pg;

// ulid_in(cstring) → ulid: a ULID (either case, Crockford's aliases) or a UUID's standard text
IDCODEC_SQL_FUNCTION(idcodec_ulid_in) {
    const char* input = PG_GETARG_CSTRING(0);
    const std::string_view text(input, std::strlen(input));
    const std::optional<Uuid> uuid = parse_ulid_or_uuid(text);
    if (!uuid) return invalid_input(fcinfo, "ulid", input, quoted_length(text));
    return uuid_datum(*uuid);
}

// ulid_out(ulid) → cstring: the canonical ULID, 26 uppercase digits
IDCODEC_SQL_FUNCTION(idcodec_ulid_out) {
    constexpr std::size_t length = idcodec::crockford::text_length;
    auto* out = static_cast<char*>(palloc(length + 1));
    ulid(uuid_argument(fcinfo, 0), std::span<char, length>(out, length));
    out[length] = '\0';
    PG_RETURN_CSTRING(out);
}

// ulid_larger(ulid, ulid) → ulid: the later of two, the state of max(ulid)
IDCODEC_SQL_FUNCTION(idcodec_ulid_larger) {
    const Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return std::memcmp(DatumGetUUIDP(a)->data, DatumGetUUIDP(b)->data, UUID_LEN) >= 0 ? a : b;
}

// ulid_smaller(ulid, ulid) → ulid: the earlier of two, the state of min(ulid)
IDCODEC_SQL_FUNCTION(idcodec_ulid_smaller) {
    const Datum a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1);
    return std::memcmp(DatumGetUUIDP(a)->data, DatumGetUUIDP(b)->data, UUID_LEN) <= 0 ? a : b;
}
