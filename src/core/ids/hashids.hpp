// hashids, byte-exact with hashids.js 2.3.0: short non-sequential IDs for lists of non-negative integers.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/code_point_index.hpp"
#include "core/common/divisor.hpp"
#include "core/common/footprint.hpp"
#include "core/common/stop_token.hpp"
#include "core/ids/id_out.hpp"
#include "core/ids/step_memo.hpp"

namespace idcodec {

class Hashids {
public:
    static constexpr std::string_view default_alphabet =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890";
    static constexpr std::size_t min_alphabet_length = 16;
    static constexpr int max_min_length = 1'000'000;
    // Results larger than this are refused (PostgreSQL cannot store a text of 1 GB).
    static constexpr std::size_t max_id_bytes = (std::size_t{1} << 30) - 64;

    // Salt and alphabet as UTF-8; throws Error(invalid_parameter) for fewer than 16 unique characters or bad UTF-8.
    Hashids(std::string_view salt, std::string_view alphabet, StopToken stop = {});
    ~Hashids();
    Hashids(Hashids&&) noexcept;
    Hashids& operator=(Hashids&&) noexcept;

    // An empty list encodes to "". Throws Error(invalid_parameter) for min_length outside 0..max_min_length.
    void encode(std::span<const std::uint64_t> numbers, int min_length, std::string& id, StopToken stop = {}) const;
    std::string encode(std::span<const std::uint64_t> numbers, int min_length = 0) const;

    // True and the numbers when `id` is exactly what encode gives for them; false (and no numbers) otherwise,
    // including values above 2^64-1.
    bool decode(std::string_view id, int min_length, std::vector<std::uint64_t>& numbers, StopToken stop = {}) const;

    // hashids.js encodeHex: 12-digit groups, each read as hex with a leading 1. Throws Error(invalid_text) for a
    // character that is not a hex digit; "" encodes to "".
    void encode_hex(std::string_view hex, int min_length, std::string& id, StopToken stop = {}) const;
    // hashids.js decodeHex: each decoded number in lowercase hex without its first digit, concatenated.
    bool decode_hex(std::string_view id, int min_length, std::string& hex, StopToken stop = {}) const;

    // Throws Error(invalid_parameter) for min_length outside 0..max_min_length. Inline: every call makes it.
    static void check_min_length(int min_length) {
        if (min_length < 0 || min_length > max_min_length) [[unlikely]]
            reject_min_length(min_length);
    }

    // Memory held, including the most the step memo may grow to.
    std::size_t footprint() const noexcept;

    std::u32string_view alphabet() const noexcept { return alphabet_; }
    std::u32string_view separators() const noexcept { return separators_; }
    std::u32string_view guards() const noexcept { return guards_; }

private:
    // The alphabet after the k-th reshuffle for one lottery character, with what decoding and padding need.
    struct Step {
        std::u32string alphabet;
        std::vector<std::uint32_t> position_of;  // index of each base-alphabet character in `alphabet`
        // By byte: the index in `alphabet` of an ASCII character (below no_ascii_digit), so most digits are read
        // with one load; no_ascii_digit for every other byte, which is read as UTF-8 and looked up.
        static constexpr std::uint8_t no_ascii_digit = 0xFF;
        std::array<std::uint8_t, 256> ascii_digit;
        // shuffle(alphabet, alphabet): the first min_length padding round when this step is the last; built on use.
        mutable std::u32string padding;

        // Counted with the padding it may get later.
        std::size_t bytes() const noexcept {
            return heap_bytes(sizeof(Step)) + 2 * heap_bytes((alphabet.size() + 1) * sizeof(char32_t)) +
                   heap_bytes(alphabet.size() * sizeof(std::uint32_t));
        }
    };

    // What the padding of an ID depends on, once its numbers are written or read.
    struct Written {
        std::uint64_t value_hash;
        std::size_t lottery;                          // index in alphabet_
        char32_t first_digit;                         // the leading digit of the first number
        std::size_t length;                           // code points of the numbers part
        const Step* kept_last;                        // the alphabet of the last number, kept by the memo ...
        std::optional<Step> own_last = std::nullopt;  // ... or, when the memo did not keep it, moved out of the walk

        const Step& last_step() const { return kept_last != nullptr ? *kept_last : *own_last; }
    };
    // Fills `written` for a walk that has ended at its last number.
    template <class Walk>
    static void finish(Written& written, std::uint64_t value_hash, std::size_t lottery, char32_t first_digit,
                       std::size_t length, Walk& steps);

    [[noreturn]] static void reject_min_length(int min_length);
    // Walks the alphabets of successive numbers for one lottery character.
    auto walk(std::size_t lottery) const;
    static const std::u32string& padding_of(const Step& step) {
        if (step.padding.empty()) [[unlikely]]
            make_padding(step);
        return step.padding;
    }
    static void make_padding(const Step& step);
    std::size_t separator_index(std::uint64_t number, char32_t leading, std::size_t i) const noexcept;
    // Reads the numbers out of an ID, accepting only a numbers part that encode would write; [begin, end) is that
    // part (between the guards, or all of it without guards).
    bool parse(std::string_view id, std::vector<std::uint64_t>& numbers, std::size_t& begin, std::size_t& end,
               Written& written, StopToken stop) const;
    // The parts of an ID (see hashids.cpp): encode writes both; decode parses the first and checks the second.
    void write_numbers(std::span<const std::uint64_t> numbers, TextOut& core, Written& written, StopToken stop) const;
    template <class Head, class Tail>
    void write_padding(const Written& written, int min_length, Head& head, Tail& tail) const;

    std::u32string salt_;
    std::u32string alphabet_;
    std::u32string separators_;
    std::u32string guards_;
    Divisor base_{2};  // alphabet_.size(): every reshuffled alphabet has this length
    Divisor separator_count_{1};
    Divisor guard_count_{1};
    // Characters numbered: alphabet_ first, then separators_, then guards_.
    CodePointIndex symbols_;
    // Reshuffled alphabets depend only on the settings, the lottery character and the position, so they are kept
    // (up to a memory budget) and reused by every later call.
    mutable StepMemo<Step> steps_;
};

}  // namespace idcodec
