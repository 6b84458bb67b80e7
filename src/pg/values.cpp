#include <algorithm>
#include <climits>
#include <cstring>

#include "core/common/error.hpp"

#include "pg/values.hpp"

namespace idcodec::pg {

namespace {

// The name of the SQL function being called, for its error messages (looked up only when one is raised).
const char* function_name(FunctionCallInfo fcinfo) {
    const char* name = fcinfo->flinfo != nullptr ? get_func_name(fcinfo->flinfo->fn_oid) : nullptr;
    return name != nullptr ? name : "idcodec";
}

}  // namespace

std::string_view utf8_of(const text* value) {
    const std::string_view bytes = raw_bytes(value);
    if (database_is_utf8_compatible()) return bytes;
    const char* converted = pg_server_to_any(bytes.data(), static_cast<int>(bytes.size()), PG_UTF8);
    return converted == bytes.data() ? bytes : std::string_view(converted, std::strlen(converted));
}

std::optional<std::string_view> id_converted_to_utf8(const text* value) {
    const std::string_view bytes = raw_bytes(value);
    const int encoding = GetDatabaseEncoding();
    const Oid conversion = FindDefaultConversionProc(encoding, PG_UTF8);
    const std::size_t capacity = bytes.size() * MAX_CONVERSION_GROWTH + 1;
    if (!OidIsValid(conversion) || capacity > MaxAllocSize) return std::nullopt;
    auto* converted = static_cast<unsigned char*>(palloc(capacity));
    auto* source = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
    const int length = static_cast<int>(bytes.size());
    if (pg_do_encoding_conversion_buf(conversion, encoding, PG_UTF8, source, length, converted,
                                      static_cast<int>(capacity), true) < length)
        return std::nullopt;
    return std::string_view(reinterpret_cast<char*>(converted));
}

text* text_from_utf8(std::string_view utf8) {
    if (utf8.size() > MaxAllocSize - VARHDRSZ)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("result is larger than 1 GB")));
    if (database_is_utf8_compatible()) return cstring_to_text_with_len(utf8.data(), static_cast<int>(utf8.size()));
    const char* converted = pg_any_to_server(utf8.data(), static_cast<int>(utf8.size()), PG_UTF8);
    return converted == utf8.data() ? cstring_to_text_with_len(utf8.data(), static_cast<int>(utf8.size()))
                                    : cstring_to_text(converted);
}

const char* message_from_utf8(const char* utf8) {
    if (database_is_utf8_compatible()) return utf8;
    const int encoding = GetDatabaseEncoding();
    const Oid conversion = FindDefaultConversionProc(PG_UTF8, encoding);
    StringInfoData out;
    initStringInfo(&out);
    auto* source = reinterpret_cast<unsigned char*>(const_cast<char*>(utf8));
    int remaining = static_cast<int>(std::strlen(utf8));
    while (remaining > 0) {
        int converted = 0;
        if (OidIsValid(conversion)) {
            enlargeStringInfo(&out, remaining * MAX_CONVERSION_GROWTH + 1);
            converted = pg_do_encoding_conversion_buf(conversion, PG_UTF8, encoding, source, remaining,
                                                      reinterpret_cast<unsigned char*>(out.data + out.len),
                                                      out.maxlen - out.len, true);
            out.len += static_cast<int>(std::strlen(out.data + out.len));
        }
        source += converted;
        remaining -= converted;
        if (remaining > 0) {  // a character the database encoding lacks, or no conversion at all
            appendStringInfoChar(&out, *source < 0x80 ? static_cast<char>(*source) : '?');
            const int skipped = std::min(pg_utf_mblen(source), remaining);
            source += skipped;
            remaining -= skipped;
        }
    }
    return out.data;
}

int quoted_length(std::string_view text) {
    return pg_mbcliplen(text.data(), static_cast<int>(std::min<std::size_t>(text.size(), INT_MAX)),
                        static_cast<int>(quoted_text_bytes));
}

std::span<const std::string_view> text_elements(ArrayType* array, const char* what, TextForm form) {
    if (ARR_NDIM(array) > 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s must be a one-dimensional array (got %d dimensions)", what, ARR_NDIM(array))));
    Datum* elements;
    bool* nulls;
    int count;
    deconstruct_array(array, TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
    auto* views = static_cast<std::string_view*>(palloc(sizeof(std::string_view) * (count + 1)));
    for (int i = 0; i < count; ++i) {
        if (nulls[i]) ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s cannot contain NULL", what)));
        const text* element = DatumGetTextPP(elements[i]);
        views[i] = form == TextForm::utf8 ? utf8_of(element) : raw_bytes(element);
    }
    return {views, static_cast<std::size_t>(count)};
}

std::uint64_t non_negative_bigint(FunctionCallInfo fcinfo, int argument) {
    const int64 number = PG_GETARG_INT64(argument);
    if (number < 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%s can only encode non-negative numbers (got %lld)", function_name(fcinfo),
                               static_cast<long long>(number))));
    return static_cast<std::uint64_t>(number);
}

std::span<const std::uint64_t> non_negative_bigints(FunctionCallInfo fcinfo, int argument) {
    ArrayType* array = PG_GETARG_ARRAYTYPE_P(argument);
    if (ARR_NDIM(array) > 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s expects a one-dimensional array (got %d dimensions)", function_name(fcinfo),
                               ARR_NDIM(array))));
    if (array_contains_nulls(array))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s cannot encode NULL array elements", function_name(fcinfo))));
    const int count = ArrayGetNItems(ARR_NDIM(array), ARR_DIMS(array));
    const auto* values = reinterpret_cast<const int64*>(ARR_DATA_PTR(array));
    for (int i = 0; i < count; ++i) {
        if (values[i] < 0)
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("%s can only encode non-negative numbers (got %lld at position %d)",
                                   function_name(fcinfo), static_cast<long long>(values[i]), i + 1)));
    }
    // Non-negative int64 values have the same bits as uint64 ones.
    return {reinterpret_cast<const std::uint64_t*>(values), static_cast<std::size_t>(count)};
}

ArrayType* bigint_array(std::span<const std::uint64_t> numbers) {
    for (const std::uint64_t number : numbers)
        if (number > static_cast<std::uint64_t>(PG_INT64_MAX)) return nullptr;
    if (numbers.empty()) return construct_empty_array(INT8OID);
    // Built directly rather than through construct_array: bigint elements are fixed-size and NULL-free.
    const std::size_t data_bytes = numbers.size() * sizeof(int64);
    if (numbers.size() > MaxArraySize || data_bytes > MaxAllocSize - ARR_OVERHEAD_NONULLS(1))
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("too many numbers for one array")));
    const std::size_t bytes = ARR_OVERHEAD_NONULLS(1) + data_bytes;
    auto* array = static_cast<ArrayType*>(palloc(bytes));
    SET_VARSIZE(array, bytes);
    array->ndim = 1;
    array->dataoffset = 0;
    array->elemtype = INT8OID;
    ARR_DIMS(array)[0] = static_cast<int>(numbers.size());
    ARR_LBOUND(array)[0] = 1;
    if (numbers.size() == 1) {  // most IDs hold one number: a store, not a call
        reinterpret_cast<std::uint64_t*>(ARR_DATA_PTR(array))[0] = numbers[0];
    } else {
        std::memcpy(ARR_DATA_PTR(array), numbers.data(), data_bytes);
    }
    return array;
}

}  // namespace idcodec::pg
