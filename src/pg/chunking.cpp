// SQL functions cdc_chunks and rolling_hash (Rabin-Karp search and winnowing are in search.cpp). Both fill a
// tuplestore (materialize mode), which spills to disk past work_mem, and read large external values in slices.
#include "../core/cdc.hpp"
#include "../core/footprint.hpp"
#include "../core/rolling.hpp"
#include "../core/utf8.hpp"
#include "bytes.hpp"
#include "call_site.hpp"
#include "values.hpp"

extern "C" {
#include "common/cryptohash.h"
#include "common/sha2.h"
#include "funcapi.h"
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

// Slices of this size are read at a time from values stored externally and uncompressed.
constexpr int64 slice_bytes = int64{8} << 20;

std::string_view bytes_of(const int64& value) {
    return {reinterpret_cast<const char*>(&value), sizeof value};
}

int64 size_argument(FunctionCallInfo fcinfo, int argument, const char* name) {
    const int32 value = PG_GETARG_INT32(argument);
    if (value < 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cdc_chunks %s must be at least 1 (got %d)", name, value)));
    return value;
}

ReturnSetInfo* materialize(FunctionCallInfo fcinfo) {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
}

void sha256(std::span<const std::uint8_t> bytes, std::uint8_t (&digest)[PG_SHA256_DIGEST_LENGTH]) {
    pg_cryptohash_ctx* context = pg_cryptohash_create(PG_SHA256);
    if (pg_cryptohash_init(context) < 0 || pg_cryptohash_update(context, bytes.data(), bytes.size()) < 0 ||
        pg_cryptohash_final(context, digest, sizeof digest) < 0)
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not compute a SHA-256 digest")));
    pg_cryptohash_free(context);
}

}  // namespace

extern "C" {

// cdc_chunks(data, algorithm, min_size, avg_size, max_size, seed, window_size, digest)
PG_FUNCTION_INFO_V1(idcodec_cdc_chunks);
Datum idcodec_cdc_chunks(PG_FUNCTION_ARGS) {
    ReturnSetInfo* result = materialize(fcinfo);
    for (int i = 0; i <= 5; ++i)
        if (PG_ARGISNULL(i)) return static_cast<Datum>(0);

    const text* algorithm = PG_GETARG_TEXT_PP(1);
    const int64 min_size = size_argument(fcinfo, 2, "min_size");
    const int64 avg_size = size_argument(fcinfo, 3, "avg_size");
    const int64 max_size = size_argument(fcinfo, 4, "max_size");
    const int64 seed = PG_GETARG_INT64(5);
    const int64 window = PG_ARGISNULL(6) ? 0 : size_argument(fcinfo, 6, "window_size");
    bool with_digest = false;
    if (!PG_ARGISNULL(7)) {
        const std::string_view digest = raw_bytes(PG_GETARG_TEXT_PP(7));
        if (digest != "sha256")
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("cdc_chunks digest must be 'sha256' or NULL (got \"%.*s\")", quoted_length(digest),
                                   digest.data())));
        with_digest = true;
    }

    ChunkerSite& site = call_site<ChunkerSite>(fcinfo);
    const std::string_view settings[] = {raw_bytes(algorithm), bytes_of(min_size), bytes_of(avg_size),
                                         bytes_of(max_size),   bytes_of(seed),     bytes_of(window)};
    if (!site.matches(settings)) {
        const std::string_view name = utf8_of(algorithm);
        const ChunkerSettings chunker_settings{static_cast<std::size_t>(min_size), static_cast<std::size_t>(avg_size),
                                               static_cast<std::size_t>(max_size), static_cast<std::uint64_t>(seed),
                                               static_cast<std::size_t>(window)};
        site.bind(settings, [&](StopToken) { return PreparedChunker{make_chunker(name, chunker_settings)}; });
    }
    const Chunker& chunker = *site.config->chunker;
    const auto lookahead = static_cast<int64>(chunker.lookahead());

    const ByteSource source = byte_source(PG_GETARG_DATUM(0));
    // A detoasted value is one slice; an external one is read a slice at a time, each starting at a chunk.
    const int64 slice_length = source.external == nullptr ? source.size : std::max(slice_bytes, 2 * lookahead);
    ByteSlice slice = read_slice(source, 0, slice_length);
    int64 slice_start = 0;
    int64 start = 0;
    while (start < source.size) {
        if (start + lookahead > slice_start + static_cast<int64>(slice.bytes.size()) &&
            slice_start + static_cast<int64>(slice.bytes.size()) < source.size) {
            release(slice);
            slice = read_slice(source, start, slice_length);
            slice_start = start;
        }
        CHECK_FOR_INTERRUPTS();
        const std::span<const std::uint8_t> rest = slice.bytes.subspan(static_cast<std::size_t>(start - slice_start));
        const bool final = slice_start + static_cast<int64>(slice.bytes.size()) == source.size;
        Cut cut{};
        guarded([&](StopToken) { cut = chunker.cut(rest, final); });
        if (cut.length == 0 || cut.length > rest.size())
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("cdc_chunks: chunker returned an invalid cut")));

        Datum values[4];
        bool nulls[4] = {false, false, false, !with_digest};
        values[0] = Int64GetDatum(start);
        values[1] = Int32GetDatum(static_cast<int32>(cut.length));
        values[2] = Int64GetDatum(static_cast<int64>(cut.hash));
        if (with_digest) {
            std::uint8_t digest[PG_SHA256_DIGEST_LENGTH];
            sha256(rest.first(cut.length), digest);
            bytea* value = static_cast<bytea*>(palloc(VARHDRSZ + sizeof digest));
            SET_VARSIZE(value, VARHDRSZ + sizeof digest);
            memcpy(VARDATA(value), digest, sizeof digest);
            values[3] = PointerGetDatum(value);
        }
        tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
        if (with_digest) pfree(DatumGetPointer(values[3]));
        start += static_cast<int64>(cut.length);
    }
    release(slice);
    return static_cast<Datum>(0);
}

// rolling_hash(data bytea | text, window_size, algorithm, seed): one row per window.
PG_FUNCTION_INFO_V1(idcodec_rolling_hash);
Datum idcodec_rolling_hash(PG_FUNCTION_ARGS) {
    ReturnSetInfo* result = materialize(fcinfo);
    const int32 window = PG_GETARG_INT32(1);
    if (window < 1 || static_cast<std::size_t>(window) > max_window_size)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("rolling_hash window_size must be between 1 and %zu (got %d)", max_window_size,
                               window)));
    const std::string_view algorithm = utf8_of(PG_GETARG_TEXT_PP(2));
    const int64 seed = PG_GETARG_INT64(3);

    // The hash object lives in the function's memory context and is destroyed with it.
    auto* callback = static_cast<MemoryContextCallback*>(palloc(sizeof(MemoryContextCallback)));
    auto* hash = static_cast<std::unique_ptr<RollingHash>*>(palloc(sizeof(std::unique_ptr<RollingHash>)));
    new (hash) std::unique_ptr<RollingHash>();
    callback->func = [](void* arg) { static_cast<std::unique_ptr<RollingHash>*>(arg)->~unique_ptr(); };
    callback->arg = hash;
    MemoryContextRegisterResetCallback(CurrentMemoryContext, callback);
    guarded([&](StopToken) {
        *hash = make_rolling_hash(algorithm, static_cast<std::size_t>(window), static_cast<std::uint64_t>(seed));
    });

    const ByteSource source = byte_source(PG_GETARG_DATUM(0));
    const int64 windows = source.size - window + 1;
    int64 position = 0;
    while (position < windows) {
        // Each slice overlaps the previous one by window - 1 bytes.
        ByteSlice slice = read_slice(source, position, slice_bytes + window - 1);
        const std::span<const std::uint8_t> bytes = slice.bytes;
        const int64 last = std::min(windows, position + static_cast<int64>(bytes.size()) - window + 1);
        std::uint64_t value = 0;
        for (int64 pos = position; pos < last; ++pos) {
            const auto at = static_cast<std::size_t>(pos - position);
            const auto width = static_cast<std::size_t>(window);
            guarded([&](StopToken) {
                value = at == 0 ? (*hash)->start(bytes.first(width)) : (*hash)->roll(bytes[at - 1], bytes[at + width - 1]);
            });
            Datum values[2] = {Int64GetDatum(pos), Int64GetDatum(static_cast<int64>(value))};
            bool nulls[2] = {false, false};
            tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
            if ((pos & 0xFFFF) == 0) CHECK_FOR_INTERRUPTS();
        }
        position = last;
        release(slice);
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
