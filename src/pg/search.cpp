// SQL functions for Rabin-Karp substring search and winnowing fingerprints.
#include <optional>
#include <vector>

#include "core/search/search.hpp"
#include "core/search/winnow.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/result_set.hpp"
#include "pg/values.hpp"

using idcodec::StopToken;
using namespace idcodec::search;
using namespace idcodec::pg;

namespace {

// Matches are found and emitted this many at a time.
constexpr std::size_t batch = 65536;

struct SearchState {
    std::optional<RabinKarpSearch> search;
    std::vector<Match> found;
};

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

enum class Positions { bytes, characters };
enum class Columns { position, needle_and_position };

// Emits every match in batches, as position rows or as (needle, position) rows.
Datum emit_matches(FunctionCallInfo fcinfo, std::span<const std::uint8_t> haystack,
                   std::span<const std::span<const std::uint8_t>> needles, Positions positions, Columns columns) {
    ResultSet rows(fcinfo);
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
            const int64 position = positions == Positions::characters ? counter.position(match.offset)
                                                                      : static_cast<int64>(match.offset) + 1;
            if (position == 0) continue;  // not at a character boundary
            const Datum position_datum = Int32GetDatum(static_cast<int32>(position));
            const bool nulls[] = {false, false};
            if (columns == Columns::position) {
                rows.put({&position_datum, 1}, {nulls, 1});
            } else {
                const Datum values[] = {Int32GetDatum(static_cast<int32>(match.needle) + 1), position_datum};
                rows.put(values, nulls);
            }
        }
        CHECK_FOR_INTERRUPTS();
    }
    return static_cast<Datum>(0);
}

}  // namespace

// rabin_karp_find(haystack text, needle text) → SETOF int: 1-based character positions
IDCODEC_SQL_FUNCTION(idcodec_rabin_karp_find_text) {
    const std::span<const std::uint8_t> needles[] = {bytes_of(PG_GETARG_TEXT_PP(1))};
    return emit_matches(fcinfo, bytes_of(PG_GETARG_TEXT_PP(0)), needles, Positions::characters, Columns::position);
}

// rabin_karp_find(haystack bytea, needle bytea) → SETOF int: 1-based byte positions
IDCODEC_SQL_FUNCTION(idcodec_rabin_karp_find_bytea) {
    const std::span<const std::uint8_t> needles[] = {bytes_of(PG_GETARG_BYTEA_PP(1))};
    return emit_matches(fcinfo, bytes_of(PG_GETARG_BYTEA_PP(0)), needles, Positions::bytes, Columns::position);
}

// rabin_karp_find(haystack text, needles text[]) → TABLE(needle int, pos int)
IDCODEC_SQL_FUNCTION(idcodec_rabin_karp_find_many) {
    const std::span<const std::string_view> texts =
        text_elements(PG_GETARG_ARRAYTYPE_P(1), "rabin_karp_find needles", TextForm::stored);
    using Needle = std::span<const std::uint8_t>;
    auto* needles = static_cast<Needle*>(palloc(sizeof(Needle) * (texts.size() + 1)));
    for (std::size_t i = 0; i < texts.size(); ++i)
        needles[i] = {reinterpret_cast<const std::uint8_t*>(texts[i].data()), texts[i].size()};
    return emit_matches(fcinfo, bytes_of(PG_GETARG_TEXT_PP(0)), {needles, texts.size()}, Positions::characters,
                        Columns::needle_and_position);
}

// winnow(data text, k int, w int) → bigint[]
IDCODEC_SQL_FUNCTION(idcodec_winnow) {
    const std::string_view data = utf8_of(PG_GETARG_TEXT_PP(0));
    const int32 k = PG_GETARG_INT32(1);
    const int32 w = PG_GETARG_INT32(2);
    std::vector<std::uint64_t>& fingerprints = call_site<std::vector<std::uint64_t>>(fcinfo);
    // As many as one bigint[] holds.
    const std::size_t max_fingerprints = (MaxAllocSize - ARR_OVERHEAD_NONULLS(1)) / sizeof(int64);
    guarded([&](StopToken stop) { fingerprints = winnow(data, k, w, stop, max_fingerprints); });
    PG_RETURN_ARRAYTYPE_P(bigint_array(fingerprints));
}
