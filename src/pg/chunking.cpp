// SQL functions cdc_chunks and rolling_hash. Both return their rows in a tuplestore and read large external values
// in slices.
#include <algorithm>
#include <memory>

#include "core/chunking/cdc.hpp"
#include "core/common/footprint.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/bytes.hpp"
#include "pg/result_set.hpp"
#include "pg/values.hpp"

extern "C" {
#include "common/cryptohash.h"
#include "common/sha2.h"
}

using idcodec::StopToken;
using namespace idcodec::cdc;
using namespace idcodec::pg;

namespace {

// A chunker prepared for one set of settings, cached per call site like the other configurations.
struct PreparedChunker {
    std::unique_ptr<const Chunker> chunker;
    std::size_t footprint() const noexcept {
        return idcodec::heap_bytes(sizeof(*this)) + idcodec::heap_bytes(chunker->footprint());
    }
};
using ChunkerSite = CallSite<PreparedChunker>;

// rolling_hash's state for the current call.
struct RollingHashSite {
    std::unique_ptr<RollingHash> hash;
};

// Slices of this size are read at a time from values stored externally and uncompressed.
constexpr int64 slice_bytes = int64{8} << 20;

// Argument 8, normalization, which cdc_chunks as idcodec 1.0.0 declared it (kept for views made then) does not pass.
constexpr int normalization_argument = 8;

// The call site's chunker for arguments 1 to 6 (algorithm, min_size, avg_size, max_size, seed, window_size) and
// normalization.
const Chunker& chunker_argument(FunctionCallInfo fcinfo) {
    ChunkerSite& site = call_site<ChunkerSite>(fcinfo);
    if (site.settled) return *site.config->chunker;
    const text* algorithm = PG_GETARG_TEXT_PP(1);
    const ChunkerArguments arguments{PG_GETARG_INT32(2),
                                     PG_GETARG_INT32(3),
                                     PG_GETARG_INT32(4),
                                     PG_GETARG_INT64(5),
                                     PG_ARGISNULL(6) ? std::nullopt : std::optional<int64>(PG_GETARG_INT32(6)),
                                     PG_NARGS() > normalization_argument ? PG_GETARG_INT32(normalization_argument) : 1};
    // NULL (the algorithm's own window) must not share a key with an explicit 0, which is refused.
    const int64 window = arguments.window_size.value_or(INT64_MIN);
    const std::string_view settings[] = {raw_bytes(algorithm),
                                         key_part(arguments.min_size),
                                         key_part(arguments.avg_size),
                                         key_part(arguments.max_size),
                                         key_part(arguments.seed),
                                         key_part(window),
                                         key_part(arguments.normalization)};
    if (!site.matches(settings)) {
        const std::string_view name = utf8_of(algorithm);
        const bool fixed = fixed_arguments(fcinfo, {1, 2, 3, 4, 5, 6, normalization_argument});
        site.bind(settings, fixed, [&](StopToken) { return PreparedChunker{make_chunker(name, arguments)}; });
    }
    return *site.config->chunker;
}

// Whether the digest argument asks for SHA-256 digests (NULL: none).
bool with_sha256(FunctionCallInfo fcinfo, int argument) {
    if (PG_ARGISNULL(argument)) return false;
    const std::string_view digest = raw_bytes(PG_GETARG_TEXT_PP(argument));
    if (digest != "sha256")
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cdc_chunks digest must be 'sha256' or NULL (got \"%.*s\")", quoted_length(digest),
                               digest.data())));
    return true;
}

Datum sha256(std::span<const std::uint8_t> bytes) {
    auto* value = static_cast<bytea*>(palloc(VARHDRSZ + PG_SHA256_DIGEST_LENGTH));
    SET_VARSIZE(value, VARHDRSZ + PG_SHA256_DIGEST_LENGTH);
    pg_cryptohash_ctx* context = pg_cryptohash_create(PG_SHA256);
    if (pg_cryptohash_init(context) < 0 || pg_cryptohash_update(context, bytes.data(), bytes.size()) < 0 ||
        pg_cryptohash_final(context, reinterpret_cast<std::uint8_t*>(VARDATA(value)), PG_SHA256_DIGEST_LENGTH) < 0)
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not compute a SHA-256 digest")));
    pg_cryptohash_free(context);
    return PointerGetDatum(value);
}

}  // namespace

// cdc_chunks(data bytea, algorithm text, min_size int, avg_size int, max_size int, seed bigint, window_size int,
//            digest text, normalization int) → TABLE(start bigint, length int, cut_hash bigint, digest bytea)
// Not STRICT (window_size and digest may be NULL): a NULL in the others gives no rows.
IDCODEC_SQL_FUNCTION(idcodec_cdc_chunks) {
    ResultSet rows(fcinfo);
    for (int i = 0; i <= 5; ++i)
        if (PG_ARGISNULL(i)) return static_cast<Datum>(0);
    if (PG_NARGS() > normalization_argument && PG_ARGISNULL(normalization_argument)) return static_cast<Datum>(0);
    const Chunker& chunker = chunker_argument(fcinfo);
    const bool with_digest = with_sha256(fcinfo, 7);
    const auto lookahead = static_cast<int64>(chunker.lookahead());
    // Each chunk starts in the slice it is cut from, so a slice holds at least one chunker's lookahead.
    SliceCursor data(PG_GETARG_DATUM(0), std::max(slice_bytes, 2 * lookahead));
    for (int64 start = 0; start < data.size();) {
        CHECK_FOR_INTERRUPTS();
        const std::span<const std::uint8_t> rest = data.from(start, lookahead);
        const bool final = data.reaches_end(start, rest);
        Cut cut{};
        guarded([&](StopToken) { cut = chunker.cut(rest, final); });
        if (cut.length == 0 || cut.length > rest.size())
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("cdc_chunks: chunker returned an invalid cut")));
        const Datum values[] = {Int64GetDatum(start), Int32GetDatum(static_cast<int32>(cut.length)),
                                Int64GetDatum(static_cast<int64>(cut.hash)),
                                with_digest ? sha256(rest.first(cut.length)) : static_cast<Datum>(0)};
        const bool nulls[] = {false, false, false, !with_digest};
        rows.put(values, nulls);
        if (with_digest) pfree(DatumGetPointer(values[3]));
        start += static_cast<int64>(cut.length);
    }
    return static_cast<Datum>(0);
}

// rolling_hash(data bytea | text, window_size int, algorithm text, seed bigint) → TABLE(pos bigint, hash bigint)
IDCODEC_SQL_FUNCTION(idcodec_rolling_hash) {
    ResultSet rows(fcinfo);
    const int32 window = PG_GETARG_INT32(1);
    const std::string_view algorithm = utf8_of(PG_GETARG_TEXT_PP(2));
    const int64 seed = PG_GETARG_INT64(3);
    RollingHashSite& site = call_site<RollingHashSite>(fcinfo);
    guarded([&](StopToken) { site.hash = make_rolling_hash(algorithm, window, seed); });
    RollingHash& hash = *site.hash;

    // Each slice overlaps the previous one by window - 1 bytes, so every window lies within one slice.
    SliceCursor data(PG_GETARG_DATUM(0), slice_bytes + window - 1);
    const int64 windows = data.size() - window + 1;
    for (int64 position = 0; position < windows;) {
        const std::span<const std::uint8_t> bytes = data.from(position, window);
        const int64 last = std::min(windows, position + static_cast<int64>(bytes.size()) - window + 1);
        const auto width = static_cast<std::size_t>(window);
        for (int64 pos = position; pos < last; ++pos) {
            const auto at = static_cast<std::size_t>(pos - position);
            std::uint64_t value = 0;
            guarded([&](StopToken) {
                value = at == 0 ? hash.start(bytes.first(width)) : hash.roll(bytes[at - 1], bytes[at + width - 1]);
            });
            const Datum values[] = {Int64GetDatum(pos), Int64GetDatum(static_cast<int64>(value))};
            const bool nulls[] = {false, false};
            rows.put(values, nulls);
            if ((pos & 0xFFFF) == 0) CHECK_FOR_INTERRUPTS();
        }
        position = last;
    }
    return static_cast<Datum>(0);
}
