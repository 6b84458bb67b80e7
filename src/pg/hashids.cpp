// SQL functions of the hashids family, and the pg_hashids 1.3 functions of the idcodec_pg_hashids extension (which
// share these entry points where the behaviour is the same).
#include <optional>
#include <vector>

#include "core/common/utf8.hpp"
#include "core/ids/hashids.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/values.hpp"

using idcodec::Hashids;
using idcodec::StopToken;
using namespace idcodec::pg;

namespace {

using HashidsSite = CallSite<Hashids>;

struct HashidsCall {
    HashidsSite& site;
    const Hashids& hashids;
    int min_length;
};

// Arguments (salt, min_length, alphabet) start at `first`; the configuration is prepared once per settings. Those
// the call does not pass (pg_hashids declares id_encode(bigint) ... id_encode(bigint, text, int, text)) take the
// defaults: no salt, no minimum length, the default alphabet.
[[gnu::always_inline]] inline HashidsCall hashids_call(FunctionCallInfo fcinfo, int first) {
    HashidsSite& site = call_site<HashidsSite>(fcinfo);
    const int passed = PG_NARGS();
    const int min_length = passed > first + 1 ? PG_GETARG_INT32(first + 1) : 0;
    if (site.settled) return {site, *site.config, min_length};
    const text* salt = passed > first ? PG_GETARG_TEXT_PP(first) : nullptr;
    const text* alphabet = passed > first + 2 ? PG_GETARG_TEXT_PP(first + 2) : nullptr;
    const std::string_view settings[] = {salt != nullptr ? raw_bytes(salt) : std::string_view(),
                                         alphabet != nullptr ? raw_bytes(alphabet) : Hashids::default_alphabet};
    if (!site.matches(settings)) {
        const std::string_view salt_utf8 = salt != nullptr ? utf8_of(salt) : std::string_view();
        const std::string_view alphabet_utf8 = alphabet != nullptr ? utf8_of(alphabet) : Hashids::default_alphabet;
        const bool fixed = fixed_arguments(fcinfo, {first, first + 2});  // salt and alphabet
        site.bind(settings, fixed, [&](StopToken stop) { return Hashids(salt_utf8, alphabet_utf8, stop); });
    }
    return {site, *site.config, min_length};
}

// How an ID's min_length is checked when decoding.
enum class MinLength {
    exact,       // the ID must be what encode gives with the caller's min_length
    any_if_set,  // pg_hashids: with a positive min_length, an ID made with any min_length (see below)
};

// Decodes into the call site's numbers; false for anything that is not a hashid of these settings.
//
// pg_hashids 1.3 decodes by skipping to the first guard character whenever the caller's min_length is positive,
// so an ID made with the same salt and alphabet decodes whatever min_length it was made with. Such an ID is exactly
// what encode gives for its numbers with min_length equal to the ID's own length (padding stops at min_length;
// an unpadded ID is at least as long as it), so that is the check in that mode.
[[gnu::always_inline]] inline bool decode_argument(FunctionCallInfo fcinfo, const HashidsCall& call,
                                                   MinLength rule = MinLength::exact) {
    const std::optional<std::string_view> id = id_argument(fcinfo, 0);
    bool decoded = false;
    guarded([&](StopToken stop) {
        int min_length = call.min_length;
        if (!id || rule == MinLength::any_if_set) {
            // decode() checks the caller's min_length only when it is the one passed on
            Hashids::check_min_length(min_length);
            if (!id) return;
        }
        if (rule == MinLength::any_if_set && min_length > 0) {
            const std::size_t characters = idcodec::utf8::length(*id);
            if (characters > static_cast<std::size_t>(Hashids::max_min_length)) return;
            min_length = static_cast<int>(characters);
        }
        decoded = call.hashids.decode(*id, min_length, call.site.numbers, stop);
    });
    return decoded;
}

// The first number of the hashid argument; nothing when it is not a hashid of these settings or, with
// `only_number`, when it holds more than one. Inlined: through a call, the optional came back through memory with
// its flag written as a byte and read back as a word, a stall on every row.
[[gnu::always_inline]] inline std::optional<std::uint64_t> first_number(FunctionCallInfo fcinfo, MinLength rule,
                                                                        bool only_number) {
    const HashidsCall call = hashids_call(fcinfo, 1);
    const std::vector<std::uint64_t>& numbers = call.site.numbers;
    if (!decode_argument(fcinfo, call, rule) || numbers.empty() || (only_number && numbers.size() != 1))
        return std::nullopt;
    return numbers[0];
}

// The numbers of the hashid argument as bigint[]; '{}' when it is not a hashid of these settings.
Datum decoded_array(FunctionCallInfo fcinfo, MinLength rule) {
    const HashidsCall call = hashids_call(fcinfo, 1);
    ArrayType* numbers = decode_argument(fcinfo, call, rule) ? bigint_array(call.site.numbers) : nullptr;
    PG_RETURN_ARRAYTYPE_P(numbers != nullptr ? numbers : construct_empty_array(INT8OID));
}

}  // namespace

// hashids_encode(number bigint, salt text, min_length int, alphabet text) → text
// (also pg_hashids' id_encode(bigint [, salt [, min_length [, alphabet]]]))
IDCODEC_SQL_FUNCTION(idcodec_hashids_encode) {
    const std::uint64_t value = non_negative_bigint(fcinfo, 0);
    const HashidsCall call = hashids_call(fcinfo, 1);
    guarded([&](StopToken stop) { call.hashids.encode({&value, 1}, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

// hashids_encode(numbers bigint[], salt text, min_length int, alphabet text) → text
// (also pg_hashids' id_encode(bigint[] [, salt [, min_length [, alphabet]]]))
IDCODEC_SQL_FUNCTION(idcodec_hashids_encode_array) {
    const std::span<const std::uint64_t> numbers = non_negative_bigints(fcinfo, 0);
    const HashidsCall call = hashids_call(fcinfo, 1);
    guarded([&](StopToken stop) { call.hashids.encode(numbers, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

// hashids_decode(hashid text, salt text, min_length int, alphabet text) → bigint[]; '{}' when not a hashid
IDCODEC_SQL_FUNCTION(idcodec_hashids_decode) { return decoded_array(fcinfo, MinLength::exact); }

// hashids_decode_one(hashid text, salt text, min_length int, alphabet text) → bigint; NULL unless it holds one number
IDCODEC_SQL_FUNCTION(idcodec_hashids_decode_one) {
    return bigint_or_null(fcinfo, first_number(fcinfo, MinLength::exact, true));
}

// hashids_encode_hex(hex text, salt text, min_length int, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_hashids_encode_hex) {
    const std::string_view hex = raw_bytes(PG_GETARG_TEXT_PP(0));
    const HashidsCall call = hashids_call(fcinfo, 1);
    guarded([&](StopToken stop) { call.hashids.encode_hex(hex, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

// hashids_decode_hex(hashid text, salt text, min_length int, alphabet text) → text; NULL when not a hashid
IDCODEC_SQL_FUNCTION(idcodec_hashids_decode_hex) {
    const std::optional<std::string_view> id = id_argument(fcinfo, 0);
    const HashidsCall call = hashids_call(fcinfo, 1);
    bool decoded = false;
    guarded([&](StopToken stop) {
        if (id) {
            decoded = call.hashids.decode_hex(*id, call.min_length, call.site.text, stop);
        } else {
            Hashids::check_min_length(call.min_length);
        }
    });
    if (!decoded) PG_RETURN_NULL();
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

// ---- pg_hashids 1.3 compatibility (idcodec_pg_hashids). id_encode uses idcodec_hashids_encode(_array).

// id_decode(hashid text [, salt text [, min_length int [, alphabet text]]]) → bigint[]; '{}' when not a hashid
IDCODEC_SQL_FUNCTION(idcodec_pg_hashids_id_decode) { return decoded_array(fcinfo, MinLength::any_if_set); }

// id_decode_once(hashid text [, salt text [, min_length int [, alphabet text]]]) → bigint: the first number,
// as pg_hashids gives it; NULL when not a hashid
IDCODEC_SQL_FUNCTION(idcodec_pg_hashids_id_decode_once) {
    return bigint_or_null(fcinfo, first_number(fcinfo, MinLength::any_if_set, false));
}

// hash_decode(hashid text, salt text, min_length int) → int: the first number; NULL when not a hashid, and an
// error (22003) when it does not fit in int, where pg_hashids silently kept the low 32 bits
IDCODEC_SQL_FUNCTION(idcodec_pg_hashids_hash_decode) {
    const std::optional<std::uint64_t> number = first_number(fcinfo, MinLength::any_if_set, false);
    if (!number) PG_RETURN_NULL();
    if (*number > static_cast<std::uint64_t>(PG_INT32_MAX))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("integer out of range"),
                        errdetail("hash_decode returns int; the hashid holds %llu. Use id_decode_once for bigint.",
                                  static_cast<unsigned long long>(*number))));
    PG_RETURN_INT32(static_cast<int32>(*number));
}
