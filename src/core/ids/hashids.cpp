#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/digits.hpp"
#include "core/ids/hashids.hpp"
#include "core/ids/id_out.hpp"
#include "core/ids/keyed_shuffle.hpp"

namespace idcodec {

namespace {

constexpr std::u32string_view default_separators = U"cfhistuCFHISTU";
constexpr std::size_t step_cache_budget = 256 * 1024;  // bytes of reshuffled alphabets kept per settings

// Reads a setting's code points, at most `limit` of them (only a prefix of a salt can matter), and with
// `unique` only the first occurrence of each.
std::u32string decode_setting(std::string_view text, const char* name, std::size_t limit, bool unique, StopToken stop) {
    std::u32string decoded;
    std::vector<bool> seen(unique ? 0x110000 : 0);
    for (std::size_t pos = 0; pos < text.size() && decoded.size() < limit;) {
        stop.poll();
        const char32_t cp = utf8::next(text, pos);
        if (cp == utf8::invalid)
            throw Error(ErrorKind::invalid_parameter, std::string("hashids ") + name + " is not valid UTF-8");
        if (unique) {
            if (seen[cp]) continue;
            seen[cp] = true;
        }
        decoded.push_back(cp);
    }
    return decoded;
}

void check_size(std::size_t bytes) {
    if (bytes > Hashids::max_id_bytes)
        throw Error(ErrorKind::program_limit, "hashid would be longer than the maximum of 1 GB");
}

// The key of a step's shuffle: the lottery character, the salt and the alphabet before the step, read in place.
struct StepKey {
    char32_t lottery;
    std::u32string_view salt;
    std::u32string_view before;

    std::size_t size() const noexcept { return 1 + salt.size() + before.size(); }
    char32_t operator[](std::size_t k) const noexcept {
        return k == 0 ? lottery : k <= salt.size() ? salt[k - 1] : before[k - 1 - salt.size()];
    }
};

}  // namespace

auto Hashids::walk(std::size_t lottery) const {
    return steps_.walk(lottery, [this, lottery](const Step* previous) {
        const std::u32string_view before = previous != nullptr ? previous->alphabet : alphabet_;
        Step step;
        step.alphabet.assign(before);
        keyed_shuffle(std::span<char32_t>(step.alphabet), StepKey{alphabet_[lottery], salt_, before});
        step.position_of.resize(step.alphabet.size());
        step.ascii_digit.fill(Step::no_ascii_digit);
        for (std::uint32_t i = 0; i < step.alphabet.size(); ++i) {
            step.position_of[symbols_.find(step.alphabet[i])] = i;
            if (step.alphabet[i] < 0x80 && i < Step::no_ascii_digit)
                step.ascii_digit[step.alphabet[i]] = static_cast<std::uint8_t>(i);
        }
        return step;
    });
}

void Hashids::make_padding(const Step& step) { step.padding = keyed_shuffled(step.alphabet, step.alphabet); }

Hashids::Hashids(std::string_view salt_text, std::string_view alphabet_text, StopToken stop) {
    const std::u32string unique = decode_setting(alphabet_text, "alphabet", SIZE_MAX, true, stop);
    // Every shuffle reads fewer salt characters than the alphabet has, so the rest of a long salt cannot matter.
    salt_ = decode_setting(salt_text, "salt", unique.size() + 1, false, stop);
    // A NUL character would make a separator's modulus zero (and PostgreSQL text cannot hold one anyway).
    if (unique.find(U'\0') != std::u32string::npos)
        throw Error(ErrorKind::invalid_parameter, "hashids alphabet must not contain the NUL character");
    if (unique.size() < min_alphabet_length)
        throw Error(ErrorKind::invalid_parameter, "hashids alphabet must contain at least 16 unique characters (got " +
                                                      std::to_string(unique.size()) + ")");

    const CodePointIndex in_unique(unique);
    const CodePointIndex in_default_separators(default_separators);
    for (const char32_t cp : unique)
        if (!in_default_separators.contains(cp)) alphabet_.push_back(cp);
    for (const char32_t cp : default_separators)
        if (in_unique.contains(cp)) separators_.push_back(cp);
    keyed_shuffle(separators_, salt_);

    // At most 3.5 alphabet characters per separator: borrow separators from the front of the alphabet.
    if (separators_.empty() || 2 * alphabet_.size() > 7 * separators_.size()) {
        std::size_t wanted = (2 * alphabet_.size() + 6) / 7;
        if (wanted == 1) wanted = 2;
        if (wanted > separators_.size()) {
            const std::size_t moved = wanted - separators_.size();
            separators_.append(alphabet_, 0, moved);
            alphabet_.erase(0, moved);
        } else {
            separators_.resize(wanted);
        }
    }
    keyed_shuffle(alphabet_, salt_);

    const std::size_t guard_count = (alphabet_.size() + 11) / 12;
    if (alphabet_.size() < 3) {
        guards_ = separators_.substr(0, guard_count);
        separators_.erase(0, guard_count);
    } else {
        guards_ = alphabet_.substr(0, guard_count);
        alphabet_.erase(0, guard_count);
    }

    symbols_ = CodePointIndex(alphabet_ + separators_ + guards_);
    base_ = Divisor(static_cast<std::uint32_t>(alphabet_.size()));
    separator_count_ = Divisor(static_cast<std::uint32_t>(separators_.size()));
    guard_count_ = Divisor(static_cast<std::uint32_t>(guards_.size()));
    steps_ = StepMemo<Step>(alphabet_.size(), step_cache_budget);
}

std::size_t Hashids::footprint() const noexcept {
    return heap_bytes(sizeof(Hashids)) + heap_bytes(salt_) + heap_bytes(alphabet_) + heap_bytes(separators_) +
           heap_bytes(guards_) + symbols_.footprint() + steps_.footprint();
}

Hashids::~Hashids() = default;
Hashids::Hashids(Hashids&&) noexcept = default;
Hashids& Hashids::operator=(Hashids&&) noexcept = default;

void Hashids::reject_min_length(int min_length) {
    throw Error(ErrorKind::invalid_parameter, "hashids min_length must be between 0 and " +
                                                  std::to_string(max_min_length) + " (got " +
                                                  std::to_string(min_length) + ")");
}

namespace {

// Number i's part of the hash that picks the lottery character. The first divides by a constant, which the
// compiler turns into a multiplication: most IDs hold one number.
std::uint64_t lottery_term(std::uint64_t number, std::size_t i) noexcept {
    return i == 0 ? number % 100 : number % (i + 100);
}

}  // namespace

// The separator after number i: chosen by the number and its leading digit.
std::size_t Hashids::separator_index(std::uint64_t number, char32_t leading, std::size_t i) const noexcept {
    return separator_count_.remainder(number % (std::uint64_t{leading} + i));
}

template <class Walk>
void Hashids::finish(Written& written, std::uint64_t value_hash, std::size_t lottery, char32_t first_digit,
                     std::size_t length, Walk& steps) {
    written.value_hash = value_hash;
    written.lottery = lottery;
    written.first_digit = first_digit;
    written.length = length;
    written.kept_last = steps.release_unkept(written.own_last) ? nullptr : &steps.current();
}

// The numbers part of an ID (lottery character, digits, separators) to `core`. Inlined into encode: through a call,
// every character put would reload its output.
[[gnu::always_inline]] inline void Hashids::write_numbers(std::span<const std::uint64_t> numbers, TextOut& core,
                                                          Written& written, StopToken stop) const {
    std::uint64_t value_hash = 0;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll_at(i);
        value_hash += lottery_term(numbers[i], i);
    }
    const std::size_t lottery = base_.remainder(value_hash);
    core.put(alphabet_[lottery]);
    std::size_t length = 1;  // code points
    char32_t first_digit = 0;

    auto steps = walk(lottery);
    char32_t digits[64];  // a 64-bit number has at most 64 digits in base 2
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll_at(i);
        const std::u32string& alphabet = steps.next().alphabet;
        std::size_t count = 0;
        std::uint64_t value = numbers[i];
        do {
            std::uint64_t digit;
            value = base_.divide(value, digit);
            digits[count++] = alphabet[digit];
        } while (value > 0);
        const char32_t leading = digits[count - 1];
        length += count;
        while (count > 0) core.put(digits[--count]);
        if (i == 0) first_digit = leading;
        if (i + 1 < numbers.size()) {
            core.put(separators_[separator_index(numbers[i], leading, i)]);
            ++length;
        }
        check_size(core.size());
    }
    finish(written, value_hash, lottery, first_digit, length, steps);
}

// The padding of an ID up to min_length: what comes before the numbers (padding, guard) to `head`, what comes after
// them to `tail`. Guards first, then halves of ever reshuffled alphabets around both ends, cut to the exact length.
// Written as runs of the reshuffled alphabets, so a decoder compares each run at once.
template <class Head, class Tail>
[[gnu::always_inline]] inline void Hashids::write_padding(const Written& written, int min_length, Head& head,
                                                          Tail& tail) const {
    const auto wanted = static_cast<std::size_t>(min_length);
    if (written.length >= wanted) return;

    const char32_t prefix_guard = guards_[guard_count_.remainder(written.value_hash + alphabet_[written.lottery])];
    if (written.length + 1 == wanted) {
        head.put(prefix_guard);
        return;
    }
    const char32_t suffix_guard = guards_[guard_count_.remainder(written.value_hash + written.first_digit)];
    const std::size_t guarded = written.length + 2;
    if (guarded >= wanted) {
        head.put(prefix_guard);
        tail.put(suffix_guard);
        return;
    }

    // Each round adds a whole alphabet, half before and half after; the last round is cut to the exact length
    // (its excess is below the alphabet's length, so the cuts stay within their halves).
    const std::u32string_view first = padding_of(written.last_step());
    const std::size_t size = alphabet_.size();
    const std::size_t half = size / 2;
    const std::size_t rounds = base_.quotient(wanted - guarded + size - 1);  // by multiplication, not a div
    const std::size_t excess = guarded + rounds * size - wanted;
    const std::size_t cut_front = excess / 2;
    const std::size_t cut_back = excess - cut_front;
    if (rounds == 1) [[likely]] {
        head.put_run(first.substr(half + cut_front));
        head.put(prefix_guard);
        tail.put(suffix_guard);
        tail.put_run(first.substr(0, half - cut_back));
        return;
    }

    std::vector<std::u32string> later;  // rounds 1 .. rounds-1, each the shuffle of the one before
    later.reserve(rounds - 1);
    for (std::size_t r = 1; r < rounds; ++r) {
        const std::u32string_view before = r == 1 ? first : std::u32string_view(later.back());
        later.push_back(keyed_shuffled(std::u32string(before), before));
    }
    const auto round = [&](std::size_t r) { return r == 0 ? first : std::u32string_view(later[r - 1]); };
    head.put_run(round(rounds - 1).substr(half + cut_front));
    for (std::size_t r = rounds - 1; r-- > 0;) head.put_run(round(r).substr(half));
    head.put(prefix_guard);
    tail.put(suffix_guard);
    for (std::size_t r = 0; r + 1 < rounds; ++r) tail.put_run(round(r).substr(0, half));
    tail.put_run(round(rounds - 1).substr(0, half - cut_back));
}

void Hashids::encode(std::span<const std::uint64_t> numbers, int min_length, std::string& id, StopToken stop) const {
    check_min_length(min_length);
    id.clear();
    if (numbers.empty()) return;
    std::string before;  // padding and guard, put in front once the rest is written
    TextOut head(before), rest(id);
    Written written;
    write_numbers(numbers, rest, written, stop);
    write_padding(written, min_length, head, rest);
    rest.flush_after(head);
}

std::string Hashids::encode(std::span<const std::uint64_t> numbers, int min_length) const {
    std::string id;
    encode(numbers, min_length, id);
    return id;
}

// Inlined into decode, its one caller: through a call, its results came back through memory.
[[gnu::always_inline]] inline bool Hashids::parse(std::string_view id, std::vector<std::uint64_t>& numbers,
                                                  std::size_t& begin, std::size_t& end, Written& written,
                                                  StopToken stop) const {
    // The numbers follow the first guard, if there is one, and end at the second: the first loop reads up to the
    // first guard (the whole ID when it has none, as an unpadded ID), the second from there to the second guard. The
    // text after that is left to the padding check, which accepts only what encode writes there (alphabet
    // characters), so a third guard is refused too.
    const auto first_separator = static_cast<std::uint32_t>(alphabet_.size());
    const auto first_guard = first_separator + static_cast<std::uint32_t>(separators_.size());
    constexpr std::uint32_t end_of_id = CodePointIndex::npos - 1;  // above every symbol, below npos
    // The longest number encode writes: 64 digits (base 2: an alphabet of 16 can lose all but 2 characters to the
    // separators) of 4 bytes each; one byte more lets the digit loop read the symbol after it.
    constexpr std::size_t max_number_bytes = 64 * 4 + 1;
    begin = 0;
    for (std::size_t pos = 0, item = 0; pos < id.size(); ++item) {
        stop.poll_at(item);
        const std::uint32_t symbol = symbols_.find(utf8::next(id, pos));
        if (symbol == CodePointIndex::npos) return false;
        if (symbol >= first_guard) {
            begin = pos;
            break;
        }
    }
    std::size_t pos = begin;
    if (pos == id.size()) return false;
    const std::uint32_t lottery = symbols_.find(utf8::next(id, pos));
    if (lottery >= first_separator) return false;

    // Only the numbers part encode writes: no number with a leading zero digit, after each number the separator it
    // selects, and a lottery character that the numbers select. Each number's digits are read by a loop of their
    // own. It only reads digits: a number past 2^64-1 is refused as it is read, and a first digit of zero with more
    // after it once the number has ended. Zeros never overflow, so the loop also stops after max_number_bytes (a
    // number that reaches it without ending is refused), and no stop is polled inside it.
    const std::uint64_t base = alphabet_.size();
    auto steps = walk(lottery);
    std::uint64_t value_hash = 0;
    std::size_t length = 1;  // code points
    char32_t first_digit = 0;
    end = id.size();
    for (std::size_t i = 0;; ++i) {
        stop.poll_at(i);
        const Step& step = steps.next();
        const std::size_t number_start = pos;
        std::uint64_t value = 0;
        std::size_t digits = 0;
        std::size_t ending_start = pos;
        std::uint32_t ending = end_of_id;  // the symbol after the number
        const std::size_t number_limit = std::min(id.size(), pos + max_number_bytes);
        while (pos < number_limit) {
            std::uint32_t digit = step.ascii_digit[static_cast<unsigned char>(id[pos])];
            if (digit != Step::no_ascii_digit) [[likely]] {
                ++pos;
            } else {
                const std::size_t at = pos;
                const std::uint32_t symbol = symbols_.find(utf8::next(id, pos));
                if (symbol >= first_separator) {
                    ending = symbol;
                    ending_start = at;
                    break;
                }
                digit = step.position_of[symbol];
            }
            if (!append_digit(value, base, digit)) return false;
            ++digits;
        }
        if (digits == 0 || ending == CodePointIndex::npos || (ending == end_of_id && pos != id.size())) return false;
        std::size_t after_leading = number_start;
        const char32_t leading = utf8::next(id, after_leading);       // the number's first digit
        if (digits > 1 && leading == step.alphabet[0]) return false;  // a leading zero
        length += digits;
        if (i == 0) first_digit = leading;
        value_hash += lottery_term(value, i);
        numbers.push_back(value);
        if (ending >= first_guard) {  // the second guard ends the numbers, as does the ID's end
            if (ending != end_of_id) end = ending_start;
            break;
        }
        // a separator: the one this number selects, and another number follows
        if (ending - first_separator != separator_index(value, leading, i)) return false;
        ++length;
    }
    if (base_.remainder(value_hash) != lottery) return false;
    finish(written, value_hash, lottery, first_digit, length, steps);
    return true;
}

bool Hashids::decode(std::string_view id, int min_length, std::vector<std::uint64_t>& numbers, StopToken stop) const {
    check_min_length(min_length);
    numbers.clear();
    // Only an ID that encode itself would produce is accepted: this rejects tampered and non-canonical input. parse
    // accepts only the numbers part encode writes; the padding is then written over the text read around it.
    std::size_t begin = 0, end = 0;
    Written written;
    if (parse(id, numbers, begin, end, written, stop)) {
        MatchOut head(id.substr(0, begin)), tail(id.substr(end));
        write_padding(written, min_length, head, tail);
        if (head.matched() && tail.matched()) return true;
    }
    numbers.clear();
    return false;
}

void Hashids::encode_hex(std::string_view hex, int min_length, std::string& id, StopToken stop) const {
    std::vector<std::uint64_t> numbers;
    numbers.reserve(hex.size() / 12 + 1);
    for (std::size_t group = 0; group < hex.size(); group += 12) {
        stop.poll();
        std::uint64_t value = 1;
        for (const char c : hex.substr(group, 12)) {
            const int digit = hex_value(c);
            if (digit < 0)
                throw Error(ErrorKind::invalid_text, "hashids hex input must contain only hexadecimal digits");
            value = value * 16 + static_cast<std::uint64_t>(digit);
        }
        numbers.push_back(value);
    }
    encode(numbers, min_length, id, stop);
}

bool Hashids::decode_hex(std::string_view id, int min_length, std::string& hex, StopToken stop) const {
    hex.clear();
    std::vector<std::uint64_t> numbers;
    if (!decode(id, min_length, numbers, stop)) return false;
    static constexpr char digits[] = "0123456789abcdef";
    for (const std::uint64_t number : numbers) {
        char buffer[16];
        std::size_t count = 0;
        for (std::uint64_t value = number; value > 0; value /= 16) buffer[count++] = digits[value % 16];
        if (count <= 1) continue;  // the leading digit is dropped
        --count;
        while (count > 0) hex.push_back(buffer[--count]);
    }
    check_size(hex.size());
    return true;
}

}  // namespace idcodec
