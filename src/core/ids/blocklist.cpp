#include <algorithm>
#include <queue>

#include "core/common/ascii.hpp"
#include "core/common/error.hpp"
#include "core/ids/blocklist.hpp"

namespace idcodec {

namespace {

constexpr std::uint32_t none = UINT32_MAX;

// The number of states of the trie of `words`: one per distinct prefix (the empty one included).
std::size_t trie_states(std::vector<std::string_view> words) {
    std::sort(words.begin(), words.end());
    std::size_t states = 1;
    std::string_view previous;
    for (const std::string_view word : words) {
        const auto common = std::mismatch(word.begin(), word.end(), previous.begin(), previous.end()).first;
        states += static_cast<std::size_t>(word.end() - common);
        previous = word;
    }
    return states;
}

}  // namespace

Blocklist::Blocklist(std::span<const std::string> words, std::string_view alphabet) {
    // One class per distinct lowercased alphabet character; upper and lower case share it.
    std::array<int, 256> class_of_lower;
    class_of_lower.fill(-1);
    for (const char c : alphabet) {
        const auto l = static_cast<unsigned char>(ascii::to_lower(c));
        if (class_of_lower[l] < 0) class_of_lower[l] = static_cast<int>(classes_++);
    }
    for (const char c : alphabet)
        class_of_[static_cast<unsigned char>(c)] =
            static_cast<std::uint8_t>(class_of_lower[static_cast<unsigned char>(ascii::to_lower(c))]);

    // A word with a character outside the alphabet can never appear in an ID.
    std::vector<std::string_view> kept;
    for (const std::string& word : words) {
        const auto outside = [&](char c) { return class_of_lower[static_cast<unsigned char>(c)] < 0; };
        if (std::none_of(word.begin(), word.end(), outside)) kept.push_back(word);
    }
    // Sized once, exactly: tables grown by doubling would leave freed blocks of every size behind in the backend.
    const std::size_t states = trie_states(kept);
    if (states > max_cells / std::max<std::size_t>(classes_, 1))
        throw Error(ErrorKind::program_limit,
                    "sqids blocklist is too large (more than " + std::to_string(max_cells) + " automaton cells)");
    next_.reserve(states * classes_);
    depth_.reserve(states);
    std::vector<std::uint8_t> flags;  // by state, until they are folded into the transitions
    flags.reserve(states);
    const auto add_state = [&](std::uint32_t depth) {
        next_.resize(next_.size() + classes_, none);
        depth_.push_back(depth);
        flags.push_back(0);
        return static_cast<std::uint32_t>(depth_.size() - 1);
    };
    add_state(0);

    for (const std::string_view word : kept) {
        std::uint32_t state = 0;
        for (const char c : word) {
            const auto cell =
                state * classes_ + static_cast<std::size_t>(class_of_lower[static_cast<unsigned char>(c)]);
            if (next_[cell] == none) {
                const std::uint32_t created = add_state(depth_[state] + 1);
                next_[cell] = created;
                state = created;
            } else {
                state = next_[cell];
            }
        }
        const bool has_digit = std::any_of(word.begin(), word.end(), ascii::is_digit);
        const bool is_long = word.size() > 3;
        flags[state] |= ends_word;
        if (is_long) flags[state] |= has_digit ? (ends_long_digit_word | has_long_digit_word) : has_long_plain_word;
    }

    // Breadth first: failure links, missing transitions filled in from them, and inherited "has" flags.
    std::vector<std::uint32_t> failure(depth_.size(), 0);
    std::queue<std::uint32_t> queue;
    for (std::size_t c = 0; c < classes_; ++c) {
        std::uint32_t& target = next_[c];
        if (target == none) {
            target = 0;
        } else {
            queue.push(target);
        }
    }
    while (!queue.empty()) {
        const std::uint32_t state = queue.front();
        queue.pop();
        flags[state] |= flags[failure[state]] & (has_long_digit_word | has_long_plain_word);
        for (std::size_t c = 0; c < classes_; ++c) {
            std::uint32_t& target = next_[state * classes_ + c];
            const std::uint32_t fallback = next_[failure[state] * classes_ + c];
            if (target == none) {
                target = fallback;
            } else {
                failure[target] = fallback;
                queue.push(target);
            }
        }
    }
    for (std::uint32_t& target : next_)
        target = target * static_cast<std::uint32_t>(classes_) | std::uint32_t{flags[target]} << flag_shift;

    if (classes_ <= std::size_t{1} << class_bits && !kept.empty()) {
        openings_.assign((trigram_mask + 1) / 64, 0);
        for (const std::string_view word : kept) {
            std::uint32_t trigram = 0;
            for (const char c : word.substr(0, 3))
                trigram =
                    trigram << class_bits | static_cast<std::uint32_t>(class_of_lower[static_cast<unsigned char>(c)]);
            openings_[trigram / 64] |= std::uint64_t{1} << (trigram % 64);
        }
    }
}

// Inlined into blocks(), which every canonical decode calls: most IDs end here.
[[gnu::always_inline]] inline bool Blocklist::may_hold_a_word(std::string_view id) const noexcept {
    if (openings_.empty()) return true;
    const std::uint64_t* const openings = openings_.data();
    const auto* const text = reinterpret_cast<const unsigned char*>(id.data());
    if (id.size() < 3) return false;
    std::uint32_t trigram = std::uint32_t{class_of_[text[0]]} << class_bits | class_of_[text[1]];
    for (std::size_t i = 2; i < id.size(); ++i) {
        trigram = (trigram << class_bits | class_of_[text[i]]) & trigram_mask;
        if (openings[trigram / 64] >> (trigram % 64) & 1) return true;
    }
    return false;
}

bool Blocklist::blocks(std::string_view id) const noexcept {
    if (next_.empty() || depth_.size() == 1 || !may_hold_a_word(id)) return false;
    std::uint32_t transition = 0;  // the root: row 0, no flags
    if (id.size() <= 3) {
        for (const char c : id) transition = step(transition, c);
        return (flags_of(transition) & ends_word) != 0 && depth_of(transition) == id.size();
    }
    for (std::size_t i = 0; i < id.size(); ++i) {
        transition = step(transition, id[i]);
        const std::uint8_t flags = flags_of(transition);
        if (flags & has_long_plain_word) return true;
        if ((flags & ends_long_digit_word) && depth_of(transition) == i + 1) return true;  // a prefix
    }
    return (flags_of(transition) & has_long_digit_word) != 0;  // a suffix
}

}  // namespace idcodec
