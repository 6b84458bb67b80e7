// SQL functions for compact identifiers: ObjectIds, UUIDs, base-N numbers and their mixup, keyed alphabet
// shuffles, short-URL candidates.
#include <array>
#include <optional>

#include "core/common/hex.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/compact.hpp"
#include "core/ids/keyed_shuffle.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/values.hpp"

extern "C" {
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

using idcodec::Alphabet;
using idcodec::parse_hex;
using idcodec::StopToken;
using namespace idcodec::compact;
using namespace idcodec::pg;

namespace {

using AlphabetSite = CallSite<Alphabet>;

constexpr std::size_t object_id_bytes = 12;

// The call site's alphabet (argument `argument`), prepared once; `exact_size` 0 means any size of at least 2.
const Alphabet& alphabet_argument(FunctionCallInfo fcinfo, AlphabetSite& site, int argument, const char* family,
                                  std::size_t exact_size = 0) {
    if (site.settled) return *site.config;
    const text* alphabet = PG_GETARG_TEXT_PP(argument);
    const std::string_view settings[] = {family, raw_bytes(alphabet)};
    if (!site.matches(settings)) {
        const std::string_view utf8 = utf8_of(alphabet);
        site.bind(settings, fixed_arguments(fcinfo, {argument}), [&](StopToken) {
            Alphabet prepared(utf8, family);
            if (exact_size != 0) prepared.require_size(exact_size);
            return prepared;
        });
    }
    return *site.config;
}

void parse_object_id(const text* value, std::span<std::uint8_t, object_id_bytes> bytes) {
    const std::string_view hex = raw_bytes(value);
    if (!parse_hex(hex, bytes))
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid ObjectId: \"%.*s\"", quoted_length(hex), hex.data()),
                        errdetail("An ObjectId is 24 hexadecimal digits.")));
}

// objectid_compress and uuid_compress: the bytes as 6-bit characters of the alphabet argument (64 characters).
Datum packed_text(FunctionCallInfo fcinfo, std::span<const std::uint8_t> bytes, const char* family) {
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    const Alphabet& alphabet = alphabet_argument(fcinfo, site, 1, family, 64);
    if (!alphabet.ascii().empty())
        PG_RETURN_TEXT_P(ascii_text(packed_length(bytes.size()),
                                    [&](std::span<char> out) noexcept { pack6_ascii(bytes, alphabet.ascii(), out); }));
    guarded([&](StopToken) {
        site.text.clear();
        pack6(bytes, alphabet, site.text);
    });
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

// objectid_decompress and uuid_decompress: the bytes of the compressed argument; false when it is malformed.
bool unpacked(FunctionCallInfo fcinfo, std::span<std::uint8_t> bytes, const char* family) {
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    const Alphabet& alphabet = alphabet_argument(fcinfo, site, 1, family, 64);
    const std::optional<std::string_view> compressed = id_argument(fcinfo, 0);
    return compressed && unpack6(*compressed, alphabet, bytes);  // bounded work that cannot throw: no guard needed
}

// base62_encode and base62_mixup: (number bigint, alphabet text) → text.
Datum number_to_code(FunctionCallInfo fcinfo, void (*encode)(std::uint64_t, const Alphabet&, std::string&)) {
    const std::uint64_t number = non_negative_bigint(fcinfo, 0);
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    const Alphabet& alphabet = alphabet_argument(fcinfo, site, 1, "base62");
    guarded([&](StopToken) {
        site.text.clear();
        encode(number, alphabet, site.text);
    });
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

// base62_decode and base62_unmixup: (code text, alphabet text) → bigint, NULL for malformed codes.
Datum code_to_number(FunctionCallInfo fcinfo,
                     std::optional<std::uint64_t> (*decode)(std::string_view, const Alphabet&, std::uint64_t)) {
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    const Alphabet& alphabet = alphabet_argument(fcinfo, site, 1, "base62");
    const std::optional<std::string_view> code = id_argument(fcinfo, 0);
    std::optional<std::uint64_t> number;
    if (code) guarded([&](StopToken) { number = decode(*code, alphabet, INT64_MAX); });
    return bigint_or_null(fcinfo, number);
}

}  // namespace

// objectid_compress(objectid text, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_objectid_compress) {
    std::array<std::uint8_t, object_id_bytes> bytes;
    parse_object_id(PG_GETARG_TEXT_PP(0), bytes);
    return packed_text(fcinfo, bytes, "objectid");
}

// objectid_decompress(compressed text, alphabet text) → text; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_objectid_decompress) {
    std::array<std::uint8_t, object_id_bytes> bytes;
    if (!unpacked(fcinfo, bytes, "objectid")) PG_RETURN_NULL();
    PG_RETURN_TEXT_P(ascii_text(2 * bytes.size(), [&](std::span<char> out) noexcept { write_hex(bytes, out); }));
}

// objectid_timestamp(objectid text) → timestamptz
IDCODEC_SQL_FUNCTION(idcodec_objectid_timestamp) {
    std::array<std::uint8_t, object_id_bytes> bytes;
    parse_object_id(PG_GETARG_TEXT_PP(0), bytes);
    const pg_time_t seconds = static_cast<pg_time_t>(std::uint32_t{bytes[0]} << 24 | std::uint32_t{bytes[1]} << 16 |
                                                     std::uint32_t{bytes[2]} << 8 | bytes[3]);
    PG_RETURN_TIMESTAMPTZ(time_t_to_timestamptz(seconds));
}

// uuid_compress(u uuid, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_uuid_compress) { return packed_text(fcinfo, PG_GETARG_UUID_P(0)->data, "uuid"); }

// uuid_decompress(compressed text, alphabet text) → uuid; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_uuid_decompress) {
    auto* uuid = static_cast<pg_uuid_t*>(palloc(sizeof(pg_uuid_t)));
    if (!unpacked(fcinfo, uuid->data, "uuid")) PG_RETURN_NULL();
    PG_RETURN_UUID_P(uuid);
}

// base62_encode(number bigint, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_base62_encode) { return number_to_code(fcinfo, encode_number); }

// base62_decode(code text, alphabet text) → bigint; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_base62_decode) { return code_to_number(fcinfo, decode_number); }

// base62_mixup(number bigint, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_base62_mixup) { return number_to_code(fcinfo, mixup); }

// base62_unmixup(code text, alphabet text) → bigint; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_base62_unmixup) { return code_to_number(fcinfo, unmixup); }

// alphabet_shuffle(alphabet text, key text) → text
IDCODEC_SQL_FUNCTION(idcodec_alphabet_shuffle) {
    const std::string_view alphabet_text = utf8_of(PG_GETARG_TEXT_PP(0));
    const std::string_view key_text = utf8_of(PG_GETARG_TEXT_PP(1));
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    guarded([&](StopToken) {
        const Alphabet alphabet(alphabet_text, "alphabet_shuffle", 1);
        const std::optional<std::u32string> key = idcodec::utf8::decode(key_text);
        if (!key)
            throw idcodec::Error(idcodec::ErrorKind::invalid_parameter, "alphabet_shuffle key is not valid UTF-8");
        site.text = idcodec::utf8::encode(idcodec::keyed_shuffled(std::u32string(alphabet.characters()), *key));
    });
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

// shortcode_candidates(url text, length int, attempt int, alphabet text) → text[]
IDCODEC_SQL_FUNCTION(idcodec_shortcode_candidates) {
    const std::string_view url = utf8_of(PG_GETARG_TEXT_PP(0));
    const int32 length = PG_GETARG_INT32(1);
    const int32 attempt = PG_GETARG_INT32(2);
    AlphabetSite& site = call_site<AlphabetSite>(fcinfo);
    const Alphabet& alphabet = alphabet_argument(fcinfo, site, 3, "shortcode");
    guarded([&](StopToken) {
        const auto codes = shortcode_candidates(url, length, attempt, alphabet);
        site.texts.assign(codes.begin(), codes.end());
    });
    Datum elements[4];
    for (std::size_t i = 0; i < 4; ++i) elements[i] = PointerGetDatum(text_from_utf8(site.texts[i]));
    PG_RETURN_ARRAYTYPE_P(construct_array(elements, 4, TEXTOID, -1, false, TYPALIGN_INT));
}
