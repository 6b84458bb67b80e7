// SQL functions for Rabin-Karp substring search and winnowing fingerprints.
#include "../core/rolling.hpp"
#include "call_site.hpp"
#include "values.hpp"

extern "C" {
#include "funcapi.h"
#include "utils/tuplestore.h"
}

using idcodec::StopToken;
using namespace idcodec::cdc;
using namespace idcodec::pg;

namespace {

constexpr std::size_t batch = 65536;

struct SearchState {
    std::optional<RabinKarpSearch> search;
    std::vector<Match> found;
};

std::span<const std::uint8_t> bytes_of(const varlena* value) {
    return {reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(value)), VARSIZE_ANY_EXHDR(value)};
}

// Turns byte offsets (in increasing order) into 1-based character positions of the text, skipping offsets inside a
// character (possible in multibyte encodings other than UTF-8).
class CharacterCounter {
public:
    explicit CharacterCounter(std::span<const std::uint8_t> text)
        : text_(text), single_byte_(pg_database_encoding_max_length() == 1) {}

    // The position of the character starting at `offset`, or 0 if no character starts there.
    int64 position(std::size_t offset) {
        if (single_byte_) return static_cast<int64>(offset) + 1;
        while (cursor_ < offset) {
            cursor_ += static_cast<std::size_t>(pg_mblen(reinterpret_cast<const char*>(text_.data()) + cursor_));
            ++characters_;
        }
        return cursor_ == offset ? characters_ + 1 : 0;
    }

private:
    std::span<const std::uint8_t> text_;
    bool single_byte_;
    std::size_t cursor_ = 0;
    int64 characters_ = 0;
};

// Materialize mode for a function returning SETOF integer (InitMaterializedSRF wants a row type).
ReturnSetInfo* materialize_integers(FunctionCallInfo fcinfo) {
    auto* result = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
    if (result == nullptr || !IsA(result, ReturnSetInfo) || (result->allowedModes & SFRM_Materialize) == 0)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("set-valued function called in context that cannot accept a set")));
    const MemoryContext previous = MemoryContextSwitchTo(result->econtext->ecxt_per_query_memory);
    TupleDesc description = CreateTemplateTupleDesc(1);
    TupleDescInitEntry(description, 1, "pos", INT4OID, -1, 0);
    result->setResult = tuplestore_begin_heap((result->allowedModes & SFRM_Materialize_Random) != 0, false, work_mem);
    result->setDesc = description;
    result->returnMode = SFRM_Materialize;
    MemoryContextSwitchTo(previous);
    return result;
}

// Emits every match in batches, as (needle, position) rows or as position rows.
void emit_matches(FunctionCallInfo fcinfo, std::span<const std::uint8_t> haystack,
                  std::span<const std::span<const std::uint8_t>> needles, bool characters, bool with_needle) {
    ReturnSetInfo* result = with_needle ? (InitMaterializedSRF(fcinfo, 0),
                                           reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo))
                                        : materialize_integers(fcinfo);
    // The search and a batch of its matches live in the call site, so that each batch is emitted from this frame.
    SearchState& state = call_site<SearchState>(fcinfo);
    guarded([&](StopToken) { state.search.emplace(needles); });
    CharacterCounter counter(haystack);
    std::vector<Match>& found = state.found;
    for (std::size_t from = 0; from <= haystack.size();) {
        guarded([&](StopToken stop) {
            found.clear();
            from = state.search->find(haystack, from, batch, found, stop);
        });
        for (const Match& match : found) {
            const int64 position = characters ? counter.position(match.offset) : static_cast<int64>(match.offset) + 1;
            if (position == 0) continue;  // not at a character boundary
            Datum values[2];
            bool nulls[2] = {false, false};
            if (with_needle) {
                values[0] = Int32GetDatum(static_cast<int32>(match.needle) + 1);
                values[1] = Int32GetDatum(static_cast<int32>(position));
            } else {
                values[0] = Int32GetDatum(static_cast<int32>(position));
            }
            tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
        }
        CHECK_FOR_INTERRUPTS();
    }
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(idcodec_rabin_karp_find_text);
Datum idcodec_rabin_karp_find_text(PG_FUNCTION_ARGS) {
    const std::span<const std::uint8_t> haystack = bytes_of(PG_GETARG_TEXT_PP(0));
    const std::span<const std::uint8_t> needles[] = {bytes_of(PG_GETARG_TEXT_PP(1))};
    emit_matches(fcinfo, haystack, needles, true, false);
    return static_cast<Datum>(0);
}

PG_FUNCTION_INFO_V1(idcodec_rabin_karp_find_bytea);
Datum idcodec_rabin_karp_find_bytea(PG_FUNCTION_ARGS) {
    const std::span<const std::uint8_t> haystack = bytes_of(PG_GETARG_BYTEA_PP(0));
    const std::span<const std::uint8_t> needles[] = {bytes_of(PG_GETARG_BYTEA_PP(1))};
    emit_matches(fcinfo, haystack, needles, false, false);
    return static_cast<Datum>(0);
}

PG_FUNCTION_INFO_V1(idcodec_rabin_karp_find_many);
Datum idcodec_rabin_karp_find_many(PG_FUNCTION_ARGS) {
    const std::span<const std::uint8_t> haystack = bytes_of(PG_GETARG_TEXT_PP(0));
    const std::span<const std::string_view> texts =
        text_elements(PG_GETARG_ARRAYTYPE_P(1), "rabin_karp_find needles", TextForm::stored);
    using Needle = std::span<const std::uint8_t>;
    auto* needles = static_cast<Needle*>(palloc(sizeof(Needle) * (texts.size() + 1)));
    for (std::size_t i = 0; i < texts.size(); ++i)
        needles[i] = {reinterpret_cast<const std::uint8_t*>(texts[i].data()), texts[i].size()};
    emit_matches(fcinfo, haystack, {needles, texts.size()}, true, true);
    return static_cast<Datum>(0);
}

PG_FUNCTION_INFO_V1(idcodec_winnow);
Datum idcodec_winnow(PG_FUNCTION_ARGS) {
    const std::string_view data = utf8_of(PG_GETARG_TEXT_PP(0));
    const int32 k = PG_GETARG_INT32(1);
    const int32 w = PG_GETARG_INT32(2);
    std::vector<std::uint64_t>& fingerprints = call_site<std::vector<std::uint64_t>>(fcinfo);
    guarded([&](StopToken stop) { fingerprints = winnow(data, k, w, stop); });
    PG_RETURN_ARRAYTYPE_P(bigint_array(fingerprints));
}

}  // extern "C"
