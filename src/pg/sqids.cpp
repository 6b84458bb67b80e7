// SQL functions of the sqids family. Not STRICT: a NULL blocklist means the spec's default list, so NULLs in the
// other arguments are handled here (they give NULL).
#include <optional>

#include "core/ids/sqids.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/values.hpp"

using idcodec::Sqids;
using idcodec::StopToken;
using namespace idcodec::pg;

namespace {

using SqidsSite = CallSite<Sqids>;

constexpr std::string_view default_blocklist_marker = "default";

bool any_null(FunctionCallInfo fcinfo, int first, int last) {
    for (int i = first; i <= last; ++i)
        if (PG_ARGISNULL(i)) return true;
    return false;
}

// Arguments (alphabet, min_length, blocklist) start at `first`; none of the first two is NULL.
const Sqids& sqids_for(FunctionCallInfo fcinfo, SqidsSite& site, int first) {
    if (site.settled) return *site.config;
    const text* alphabet = PG_GETARG_TEXT_PP(first);
    const int32 min_length = PG_GETARG_INT32(first + 1);
    ArrayType* blocklist = PG_ARGISNULL(first + 2) ? nullptr : PG_GETARG_ARRAYTYPE_P(first + 2);
    const std::string_view settings[] = {
        raw_bytes(alphabet),
        key_part(min_length),
        blocklist == nullptr ? default_blocklist_marker
                             : std::string_view(reinterpret_cast<const char*>(blocklist), VARSIZE(blocklist)),
    };
    if (!site.matches(settings)) {
        const std::string_view alphabet_utf8 = utf8_of(alphabet);
        std::optional<std::span<const std::string_view>> words;
        if (blocklist != nullptr) words = text_elements(blocklist, "sqids blocklist", TextForm::utf8);
        site.bind(settings, fixed_arguments(fcinfo, {first, first + 1, first + 2}),
                  [&](StopToken stop) { return Sqids(alphabet_utf8, min_length, words, stop); });
    }
    return *site.config;
}

Datum encode(FunctionCallInfo fcinfo, std::span<const std::uint64_t> numbers) {
    SqidsSite& site = call_site<SqidsSite>(fcinfo);
    const Sqids& sqids = sqids_for(fcinfo, site, 1);
    guarded([&](StopToken stop) { sqids.encode(numbers, site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

}  // namespace

// sqids_encode(number bigint, alphabet text, min_length int, blocklist text[]) → text
IDCODEC_SQL_FUNCTION(idcodec_sqids_encode) {
    if (any_null(fcinfo, 0, 2)) PG_RETURN_NULL();
    const std::uint64_t value = non_negative_bigint(fcinfo, 0);
    return encode(fcinfo, {&value, 1});
}

// sqids_encode(numbers bigint[], alphabet text, min_length int, blocklist text[]) → text
IDCODEC_SQL_FUNCTION(idcodec_sqids_encode_array) {
    if (any_null(fcinfo, 0, 2)) PG_RETURN_NULL();
    return encode(fcinfo, non_negative_bigints(fcinfo, 0));
}

// sqids_decode(id text, alphabet text, min_length int, blocklist text[], canonical boolean) → bigint[]
IDCODEC_SQL_FUNCTION(idcodec_sqids_decode) {
    if (any_null(fcinfo, 0, 2) || PG_ARGISNULL(4)) PG_RETURN_NULL();
    SqidsSite& site = call_site<SqidsSite>(fcinfo);
    const Sqids& sqids = sqids_for(fcinfo, site, 1);
    const std::optional<std::string_view> id = id_argument(fcinfo, 0);
    const bool canonical = PG_GETARG_BOOL(4);
    // An ID with a character UTF-8 cannot hold has one outside any sqids alphabet: nothing to decode.
    site.numbers.clear();
    if (id) guarded([&](StopToken stop) { sqids.decode(*id, site.numbers, canonical, stop); });
    ArrayType* numbers = bigint_array(site.numbers);
    PG_RETURN_ARRAYTYPE_P(numbers != nullptr ? numbers : construct_empty_array(INT8OID));
}
