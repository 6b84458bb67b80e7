#include "values.hpp"

#include <cstring>

namespace idcodec::pg {

namespace {

bool database_is_utf8_compatible() {
    const int encoding = GetDatabaseEncoding();
    return encoding == PG_UTF8 || encoding == PG_SQL_ASCII;
}

}  // namespace

std::string_view utf8_of(const text* value) {
    const std::string_view bytes = raw_bytes(value);
    if (database_is_utf8_compatible()) return bytes;
    const char* converted = pg_server_to_any(bytes.data(), static_cast<int>(bytes.size()), PG_UTF8);
    return converted == bytes.data() ? bytes : std::string_view(converted, std::strlen(converted));
}

text* text_from_utf8(std::string_view utf8) {
    if (utf8.size() > MaxAllocSize - VARHDRSZ)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("result is larger than 1 GB")));
    if (database_is_utf8_compatible()) return cstring_to_text_with_len(utf8.data(), static_cast<int>(utf8.size()));
    const char* converted = pg_any_to_server(utf8.data(), static_cast<int>(utf8.size()), PG_UTF8);
    return converted == utf8.data() ? cstring_to_text_with_len(utf8.data(), static_cast<int>(utf8.size()))
                                    : cstring_to_text(converted);
}

std::span<const std::uint64_t> non_negative_bigints(ArrayType* array, const char* function_name) {
    if (ARR_NDIM(array) > 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s expects a one-dimensional array (got %d dimensions)", function_name,
                               ARR_NDIM(array))));
    if (array_contains_nulls(array))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s cannot encode NULL array elements", function_name)));
    const int count = ArrayGetNItems(ARR_NDIM(array), ARR_DIMS(array));
    const auto* values = reinterpret_cast<const int64*>(ARR_DATA_PTR(array));
    for (int i = 0; i < count; ++i) {
        if (values[i] < 0)
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("%s can only encode non-negative numbers (got %lld at position %d)", function_name,
                                   static_cast<long long>(values[i]), i + 1)));
    }
    // Non-negative int64 values have the same bits as uint64 ones.
    return {reinterpret_cast<const std::uint64_t*>(values), static_cast<std::size_t>(count)};
}

ArrayType* bigint_array(std::span<const std::uint64_t> numbers) {
    for (const std::uint64_t number : numbers)
        if (number > static_cast<std::uint64_t>(PG_INT64_MAX)) return nullptr;
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * (numbers.size() + 1)));
    for (std::size_t i = 0; i < numbers.size(); ++i) elements[i] = Int64GetDatum(static_cast<int64>(numbers[i]));
    return construct_array(elements, static_cast<int>(numbers.size()), INT8OID, sizeof(int64), FLOAT8PASSBYVAL,
                           TYPALIGN_DOUBLE);
}

}  // namespace idcodec::pg
