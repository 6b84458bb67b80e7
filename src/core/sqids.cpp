#include <algorithm>
#include <utility>

#include "core/ascii.hpp"
#include "core/digits.hpp"
#include "core/error.hpp"
#include "core/sqids.hpp"
#include "core/utf8.hpp"

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

std::array<std::uint8_t, 128> positions(std::string_view alphabet) {
    std::array<std::uint8_t, 128> position;
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

bool Sqids::encode_with_increment(std::span<const std::uint64_t> numbers, std::size_t increment, std::string& id,
                                  StopToken stop) const {
    std::uint64_t sum = numbers.size();
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll();
        sum += static_cast<unsigned char>(alphabet_[length_.remainder(numbers[i])]) + i;
    }
    const std::size_t offset = length_.remainder(length_.remainder(sum) + increment);

    id.clear();
    id.push_back(alphabet_[offset]);
    auto steps = walk(offset);
    const Step* step = &steps.next();
    char digits[64];  // base >= 2
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        stop.poll();
        std::size_t count = 0;
        std::uint64_t value = numbers[i];
        do {
            std::uint64_t digit;
            value = base_.divide(value, digit);
            digits[count++] = step->alphabet[1 + digit];
        } while (value > 0);
        while (count > 0) id.push_back(digits[--count]);
        if (i + 1 < numbers.size()) {
            id.push_back(step->alphabet[0]);
            step = &steps.next();
        }
        if (id.size() > max_id_bytes) throw Error(ErrorKind::program_limit, "sqid would be longer than 1 GB");
    }

    const auto min_length = static_cast<std::size_t>(min_length_);
    if (id.size() < min_length) {
        id.push_back(step->alphabet[0]);
        while (id.size() < min_length) {
            step = &steps.next();
            id.append(step->alphabet, 0, std::min(min_length - id.size(), step->alphabet.size()));
        }
    }
    return !blocklist_.blocks(id);
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
    for (std::size_t i = 0; i < id.size(); ++i) {
        stop.poll();
        const auto c = static_cast<unsigned char>(id[i]);
        if (c >= 128 || position_[c] == absent) return;
    }

    auto steps = walk(position_[static_cast<unsigned char>(id[0])]);
    const Step* step = &steps.next();
    std::string_view rest = id.substr(1);
    const std::uint64_t base = base_.value();
    while (!rest.empty()) {
        stop.poll();
        const std::size_t separator = rest.find(step->alphabet[0]);
        const std::string_view chunk = rest.substr(0, separator);
        if (chunk.empty()) break;
        std::uint64_t value = 0;
        for (const char c : chunk) {
            const std::uint64_t digit = step->position[static_cast<unsigned char>(c)] - 1u;
            if (!append_digit(value, base, digit)) {
                numbers.clear();
                return;
            }
        }
        numbers.push_back(value);
        if (separator == std::string_view::npos) break;
        step = &steps.next();
        rest.remove_prefix(separator + 1);
    }

    if (canonical) {
        std::string expected;
        try {
            encode(numbers, expected, stop);
        } catch (const Error& error) {
            if (error.kind() == ErrorKind::interrupted) throw;
            expected.clear();
        }
        if (expected != id) numbers.clear();
    }
}

}  // namespace idcodec
