// Argument readers and result builders: PostgreSQL values to what the core takes (UTF-8 text, spans of numbers)
// and back.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "pg/postgres.hpp"

namespace idcodec::pg {

// The bytes of a text value as stored (database encoding).
inline std::string_view raw_bytes(const text* value) { return {VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)}; }

// The bytes of a bytea or text value as stored.
inline std::span<const std::uint8_t> bytes_of(const struct varlena* value) {
    return {reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(value)), VARSIZE_ANY_EXHDR(value)};
}

// The text as UTF-8: the bytes themselves in UTF-8 (and SQL_ASCII) databases, else a converted copy.
std::string_view utf8_of(const text* value);

// Whether text in the database's encoding is UTF-8 as it is (UTF-8 and SQL_ASCII databases).
inline bool database_is_utf8_compatible() {
    const int encoding = GetDatabaseEncoding();
    return encoding == PG_UTF8 || encoding == PG_SQL_ASCII;
}

// id_as_utf8 in a database of another encoding: a converted copy.
std::optional<std::string_view> id_converted_to_utf8(const text* value);

// An ID to decode, as UTF-8; nothing when it holds a character UTF-8 cannot represent (so it is no valid ID),
// because decoding never raises for a bad ID. Inline: decoders call it on every row.
inline std::optional<std::string_view> id_as_utf8(const text* value) {
    if (database_is_utf8_compatible()) return raw_bytes(value);
    return id_converted_to_utf8(value);
}

// Argument n as PG_GETARG_TEXT_PP gives it, with no call for a value that is neither compressed nor stored out of
// line (nearly every row), which pg_detoast_datum_packed would return as it is.
inline const text* packed_text_argument(FunctionCallInfo fcinfo, int n) {
    auto* const value = reinterpret_cast<struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(n)));
    if (VARATT_IS_COMPRESSED(value) || VARATT_IS_EXTERNAL(value)) [[unlikely]]
        return pg_detoast_datum_packed(value);
    return value;
}

// Argument n, an ID to decode, as id_as_utf8 gives it. Inline: decoders call it on every row.
inline std::optional<std::string_view> id_argument(FunctionCallInfo fcinfo, int n) {
    return id_as_utf8(packed_text_argument(fcinfo, n));
}

// A text value from UTF-8, converted to the database encoding where that differs.
text* text_from_utf8(std::string_view utf8);

// A text value of `length` ASCII characters written in place by write(std::span<char>), which must not throw: ASCII
// is the same bytes in every server encoding, so nothing is converted or copied.
template <class Write>
text* ascii_text(std::size_t length, Write&& write) {
    static_assert(noexcept(write(std::span<char>())), "ascii_text writes outside the exception bridge");
    auto* result = static_cast<text*>(palloc(VARHDRSZ + length));
    SET_VARSIZE(result, VARHDRSZ + length);
    write(std::span<char>(VARDATA(result), length));
    return result;
}

// An error message from the core (UTF-8, NUL-terminated) in the database encoding. A character that encoding
// cannot hold becomes '?': reporting an error must not raise another.
const char* message_from_utf8(const char* utf8);

// How many bytes of `text` (database encoding) to quote in a message: at most quoted_text_bytes, ending on a
// character boundary.
int quoted_length(std::string_view text);

// The elements of a text[] of at most one dimension, without NULLs (errors name `what`), in memory of the current
// context: as UTF-8, or as stored (database encoding).
enum class TextForm { utf8, stored };
std::span<const std::string_view> text_elements(ArrayType* array, const char* what, TextForm form);

// Argument `argument` (bigint) as a number to encode: an error (22003) names the SQL function if it is negative.
std::uint64_t non_negative_bigint(FunctionCallInfo fcinfo, int argument);

// Argument `argument` (bigint[]): one-dimensional, without NULLs, non-negative; errors name the SQL function.
std::span<const std::uint64_t> non_negative_bigints(FunctionCallInfo fcinfo, int argument);

// A decoded number as bigint: NULL when there is none or it does not fit in bigint.
inline Datum bigint_or_null(FunctionCallInfo fcinfo, std::optional<std::uint64_t> number) {
    if (!number || *number > static_cast<std::uint64_t>(PG_INT64_MAX)) PG_RETURN_NULL();
    PG_RETURN_INT64(static_cast<int64>(*number));
}

// A bigint[] of the numbers, or NULL if one of them does not fit in bigint.
ArrayType* bigint_array(std::span<const std::uint64_t> numbers);

}  // namespace idcodec::pg
