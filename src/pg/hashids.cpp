// SQL functions of the hashids family.
#include "../core/hashids.hpp"

#include "call_site.hpp"
#include "values.hpp"

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

// Arguments (salt, min_length, alphabet) start at `first`; the configuration is prepared once per settings.
HashidsCall hashids_call(FunctionCallInfo fcinfo, int first) {
    HashidsSite& site = call_site<HashidsSite>(fcinfo);
    const text* salt = PG_GETARG_TEXT_PP(first);
    const int min_length = PG_GETARG_INT32(first + 1);
    const text* alphabet = PG_GETARG_TEXT_PP(first + 2);
    const std::string_view settings[] = {raw_bytes(salt), raw_bytes(alphabet)};
    if (!site.matches(settings)) {
        const std::string_view salt_utf8 = utf8_of(salt);
        const std::string_view alphabet_utf8 = utf8_of(alphabet);
        site.bind(settings, [&](StopToken stop) { return Hashids(salt_utf8, alphabet_utf8, stop); });
    }
    return {site, *site.config, min_length};
}

// Decodes into the call site's numbers; false for anything that is not a hashid of these settings.
bool decode_argument(FunctionCallInfo fcinfo, const HashidsCall& call) {
    const std::optional<std::string_view> id = id_as_utf8(PG_GETARG_TEXT_PP(0));
    bool decoded = false;
    guarded([&](StopToken stop) {
        if (id) {
            decoded = call.hashids.decode(*id, call.min_length, call.site.numbers, stop);
        } else {
            Hashids::check_min_length(call.min_length);  // settings are checked even when the ID cannot be one
        }
    });
    return decoded;
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(idcodec_hashids_encode);
Datum idcodec_hashids_encode(PG_FUNCTION_ARGS) {
    const int64 number = PG_GETARG_INT64(0);
    if (number < 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("hashids_encode can only encode non-negative numbers (got %lld)",
                               static_cast<long long>(number))));
    const HashidsCall call = hashids_call(fcinfo, 1);
    const auto value = static_cast<std::uint64_t>(number);
    guarded([&](StopToken stop) { call.hashids.encode({&value, 1}, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

PG_FUNCTION_INFO_V1(idcodec_hashids_encode_array);
Datum idcodec_hashids_encode_array(PG_FUNCTION_ARGS) {
    const std::span<const std::uint64_t> numbers = non_negative_bigints(PG_GETARG_ARRAYTYPE_P(0), "hashids_encode");
    const HashidsCall call = hashids_call(fcinfo, 1);
    guarded([&](StopToken stop) { call.hashids.encode(numbers, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

PG_FUNCTION_INFO_V1(idcodec_hashids_decode);
Datum idcodec_hashids_decode(PG_FUNCTION_ARGS) {
    const HashidsCall call = hashids_call(fcinfo, 1);
    ArrayType* numbers = decode_argument(fcinfo, call) ? bigint_array(call.site.numbers) : nullptr;
    PG_RETURN_ARRAYTYPE_P(numbers != nullptr ? numbers : construct_empty_array(INT8OID));
}

PG_FUNCTION_INFO_V1(idcodec_hashids_decode_one);
Datum idcodec_hashids_decode_one(PG_FUNCTION_ARGS) {
    const HashidsCall call = hashids_call(fcinfo, 1);
    if (!decode_argument(fcinfo, call) || call.site.numbers.size() != 1 ||
        call.site.numbers[0] > static_cast<std::uint64_t>(PG_INT64_MAX))
        PG_RETURN_NULL();
    PG_RETURN_INT64(static_cast<int64>(call.site.numbers[0]));
}

PG_FUNCTION_INFO_V1(idcodec_hashids_encode_hex);
Datum idcodec_hashids_encode_hex(PG_FUNCTION_ARGS) {
    const std::string_view hex = raw_bytes(PG_GETARG_TEXT_PP(0));
    const HashidsCall call = hashids_call(fcinfo, 1);
    guarded([&](StopToken stop) { call.hashids.encode_hex(hex, call.min_length, call.site.text, stop); });
    PG_RETURN_TEXT_P(text_from_utf8(call.site.text));
}

PG_FUNCTION_INFO_V1(idcodec_hashids_decode_hex);
Datum idcodec_hashids_decode_hex(PG_FUNCTION_ARGS) {
    const std::optional<std::string_view> id = id_as_utf8(PG_GETARG_TEXT_PP(0));
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

}  // extern "C"
