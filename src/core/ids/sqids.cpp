#include <algorithm>
#include <utility>

#include "core/common/ascii.hpp"
#include "core/common/error.hpp"
#include "core/common/utf8.hpp"
#include "core/ids/digits.hpp"
#include "core/ids/id_out.hpp"
#include "core/ids/sqids.hpp"

namespace idcodec {

namespace {

constexpr std::uint8_t absent = 0xFF;
constexpr std::size_t step_cache_budget = 256 * 1024;

// The spec's shuffle.
void shuffle(std::string& chars) {
    const std::size_t n = chars.size();
    for (std::size_t i = 0, j = n - 1; j > 0; ++i, --j) {
        const std::size_t r = (i * j + static_cast<unsigned char>(chars[i]) + static_cast<unsigned char>(chars[j])) % n;
        std::swap(chars[i], chars[r]);
    }
}

// By byte, so an ID's bytes index it unchecked: a byte outside the alphabet (any byte above 127 too) is absent.
std::array<std::uint8_t, 256> positions(std::string_view alphabet) {
    std::array<std::uint8_t, 256> position;
    position.fill(absent);
    for (std::size_t i = 0; i < alphabet.size(); ++i)
        position[static_cast<unsigned char>(alphabet[i])] = static_cast<std::uint8_t>(i);
    return position;
}

// The spec's blocklist filter, as JavaScript's toLowerCase sees the words: only words whose characters lowercase to
// ASCII can survive (the Kelvin sign is the one non-ASCII character that does), at least 3 of them, all present in
// the lowercased alphabet.
std::vector<std::string> filter_blocklist(std::span<const std::string_view> words, std::string_view alphabet,
                                          StopToken stop) {
    std::array<bool, 128> in_alphabet{};
    for (const char c : alphabet) in_alphabet[static_cast<unsigned char>(ascii::to_lower(c))] = true;
    std::vector<std::string> kept;
    for (std::size_t w = 0; w < words.size(); ++w) {
        stop.poll();
        std::string word;
        bool keep = true;
        for (std::size_t pos = 0; keep && pos < words[w].size();) {
            char32_t cp = utf8::next(words[w], pos);
            if (cp == U'\u212A') cp = U'k';
            keep = cp < 128 && in_alphabet[static_cast<unsigned char>(ascii::to_lower(static_cast<char>(cp)))];
            word.push_back(ascii::to_lower(static_cast<char>(cp)));
        }
        if (keep && word.size() >= 3) kept.push_back(std::move(word));
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
}

}  // namespace

Sqids::Sqids(std::string_view alphabet, int min_length, std::optional<std::span<const std::string_view>> blocklist,
             StopToken stop)
    : min_length_(min_length) {
    if (std::any_of(alphabet.begin(), alphabet.end(), [](char c) { return static_cast<unsigned char>(c) >= 128; }))
        throw Error(ErrorKind::invalid_parameter, "Alphabet cannot contain multibyte characters");
    if (alphabet.size() < 3) throw Error(ErrorKind::invalid_parameter, "Alphabet length must be at least 3");
    std::array<bool, 128> seen{};
    for (const char c : alphabet) {
        if (seen[static_cast<unsigned char>(c)])
            throw Error(ErrorKind::invalid_parameter, "Alphabet must contain unique characters");
        seen[static_cast<unsigned char>(c)] = true;
    }
    if (min_length < 0 || min_length > max_min_length)
        throw Error(ErrorKind::invalid_parameter, "Minimum length has to be between 0 and 255");

    const std::vector<std::string> words = filter_blocklist(blocklist.value_or(default_blocklist()), alphabet, stop);
    if (!words.empty()) blocklist_ = Blocklist(words, alphabet);

    alphabet_ = std::string(alphabet);
    shuffle(alphabet_);
    position_ = positions(alphabet_);
    length_ = Divisor(static_cast<std::uint32_t>(alphabet_.size()));
    base_ = Divisor(static_cast<std::uint32_t>(alphabet_.size() - 1));
    steps_ = StepMemo<Step>(alphabet_.size(), step_cache_budget);
}

std::size_t Sqids::footprint() const noexcept {
    return heap_bytes(sizeof(Sqids)) + heap_bytes(alphabet_) + blocklist_.footprint() + steps_.footprint();
}

auto Sqids::walk(std::size_t offset) const {
    return steps_.walk(offset, [this, offset](const Step* previous) {
        Step step;
        if (previous == nullptr) {
            step.alphabet = alphabet_.substr(offset) + alphabet_.substr(0, offset);
            std::reverse(step.alphabet.begin(), step.alphabet.end());
        } else {
            step.alphabet = previous->alphabet;
            shuffle(step.alphabet);
        }
        step.position = positions(step.alphabet);
        return step;
    });
}

// Inlined: a canonical decode calls it on every row.
[[gnu::always_inline]] inline std::size_t Sqids::offset_of(std::span<const std::uint64_t> numbers,
                                                           std::size_t increment, StopToken stop) const {
    std::uint64_t sum = numbers.size();
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll_at(i);
        sum += static_cast<unsigned char>(alphabet_[length_.remainder(numbers[i])]) + i;
    }
    // (sum % n + increment) % n, with both terms at most n
    const std::size_t offset = length_.remainder(sum) + increment;
    return offset >= alphabet_.size() ? offset - alphabet_.size() : offset;
}

// Inlined into its callers, so a TextOut's count of gathered bytes can stay in a register.
template <class Out>
[[gnu::always_inline]] inline void Sqids::write(std::span<const std::uint64_t> numbers, std::size_t offset, Out& out,
                                                StopToken stop) const {
    out.put(static_cast<unsigned char>(alphabet_[offset]));
    auto steps = walk(offset);
    const Step* step = &steps.next();
    unsigned char digits[64];  // base >= 2
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll_at(i);
        std::size_t count = 0;
        std::uint64_t value = numbers[i];
        do {
            std::uint64_t digit;
            value = base_.divide(value, digit);
            digits[count++] = static_cast<unsigned char>(step->alphabet[1 + digit]);
        } while (value > 0);
        while (count > 0) out.put(digits[--count]);
        if (i + 1 < numbers.size()) {
            out.put(static_cast<unsigned char>(step->alphabet[0]));
            step = &steps.next();
        }
        if constexpr (Out::builds_text)
            if (out.size() > max_id_bytes) throw Error(ErrorKind::program_limit, "sqid would be longer than 1 GB");
    }

    const auto min_length = static_cast<std::size_t>(min_length_);
    if (out.size() < min_length) {
        out.put(static_cast<unsigned char>(step->alphabet[0]));
        while (out.size() < min_length) {
            step = &steps.next();
            const std::size_t count = std::min(min_length - out.size(), step->alphabet.size());
            for (std::size_t k = 0; k < count; ++k) out.put(static_cast<unsigned char>(step->alphabet[k]));
        }
    }
}

bool Sqids::encode_with_increment(std::span<const std::uint64_t> numbers, std::size_t increment, std::string& id,
                                  StopToken stop) const {
    id.clear();
    TextOut out(id);
    write(numbers, offset_of(numbers, increment, stop), out, stop);
    const bool blocked = blocklist_.blocks(out.text());
    out.flush();
    return !blocked;
}

// Usually the ID of the first attempt, which starts with the character of offset_of(numbers, 0). A plain ID (see
// decode) then is exactly what that attempt writes, unless encode would have padded it, so only the blocklist is
// left to check. Inlined into decode, its one caller: that is most canonical decodes.
[[gnu::always_inline]] inline bool Sqids::is_canonical(std::span<const std::uint64_t> numbers, std::string_view id,
                                                       bool plain, StopToken stop) const {
    if (plain && id.size() <= max_id_bytes && alphabet_[offset_of(numbers, 0, stop)] == id[0])
        return id.size() >= static_cast<std::size_t>(min_length_) && !blocklist_.blocks(id);
    return encodes_to(numbers, id, stop);
}

// The other IDs: one of the first attempt is written over `id` (a padded one, or one with a leading zero that must
// not match); one of a later attempt, which starts with another character, is checked by encoding in full. Either
// way no blocked word may be in it.
bool Sqids::encodes_to(std::span<const std::uint64_t> numbers, std::string_view id, StopToken stop) const {
    if (id.size() > max_id_bytes) return false;  // longer than encode ever writes
    const std::size_t offset = offset_of(numbers, 0, stop);
    if (alphabet_[offset] == id[0]) {
        MatchOut out(id);
        write(numbers, offset, out, stop);
        return out.matched() && !blocklist_.blocks(id);
    }
    std::string expected;
    try {
        encode(numbers, expected, stop);
    } catch (const Error& error) {
        if (error.kind() == ErrorKind::interrupted) throw;
        return false;
    }
    return expected == id;
}

void Sqids::encode(std::span<const std::uint64_t> numbers, std::string& id, StopToken stop) const {
    id.clear();
    if (numbers.empty()) return;
    for (std::size_t increment = 0; increment <= alphabet_.size(); ++increment)
        if (encode_with_increment(numbers, increment, id, stop)) return;
    id.clear();
    throw Error(ErrorKind::invalid_parameter, "Reached max attempts to re-generate the ID");
}

std::string Sqids::encode(std::span<const std::uint64_t> numbers) const {
    std::string id;
    encode(numbers, id);
    return id;
}

void Sqids::decode(std::string_view id, std::vector<std::uint64_t>& numbers, bool canonical, StopToken stop) const {
    numbers.clear();
    if (id.empty()) return;
    // A character outside the alphabet anywhere makes the ID undecodable. Every step's alphabet holds the same
    // characters, so the parts check the characters they read, and the characters after the parts are checked last.
    const auto* const text = reinterpret_cast<const unsigned char*>(id.data());
    const std::uint8_t offset = position_[text[0]];
    if (offset == absent) return;

    // Each part of the ID is read with its step's alphabet, whose first character is the separator (position 0):
    // a part ends at it; an empty part ends the ID. `plain`: every part was read, each without leading zero digits,
    // and the ID ends with a digit, which is how encode writes numbers when it does not pad.
    auto steps = walk(offset);
    const std::uint64_t base = base_.value();
    bool plain = true;
    std::size_t i = 1;
    for (std::size_t part = 0; i < id.size(); ++part) {
        stop.poll_at(part);
        const Step& step = steps.next();
        // the part's digits, up to its separator or the ID's end; a run of zero digits (which a number past 2^64-1
        // cannot be) polls as it goes
        std::uint64_t value = 0;
        const std::size_t first = i;
        for (; i < id.size(); ++i) {
            const std::uint8_t position = step.position[text[i]];
            if (position == 0) break;
            if (position == absent) return numbers.clear();
            if (value == 0 && i > first) {
                plain = false;  // a leading zero
                stop.poll_at(i);
            }
            if (!append_digit(value, base, position - 1u)) return numbers.clear();
        }
        if (i == first) {  // an empty part ends the ID
            plain = false;
            break;
        }
        numbers.push_back(value);
        if (i == id.size()) break;
        ++i;                                // past the separator
        if (i == id.size()) plain = false;  // encode ends an ID with a digit
    }
    for (; i < id.size(); ++i) {  // after an empty part
        stop.poll_at(i);
        if (position_[text[i]] == absent) return numbers.clear();
    }
    if (numbers.empty()) plain = false;

    if (canonical && !numbers.empty() && !is_canonical(numbers, id, plain, stop)) numbers.clear();
}

}  // namespace idcodec
