// Sqids, byte-exact with the Sqids spec (sqids 0.3.0 on npm), over the full unsigned 64-bit range.
#pragma once
#include "core/common/no_postgres.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/divisor.hpp"
#include "core/common/footprint.hpp"
#include "core/common/stop_token.hpp"
#include "core/ids/blocklist.hpp"
#include "core/ids/step_memo.hpp"

namespace idcodec {

class Sqids {
public:
    static constexpr std::string_view default_alphabet =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static constexpr int max_min_length = 255;
    static constexpr std::size_t max_id_bytes = (std::size_t{1} << 30) - 64;

    // The 560 words of the spec's default blocklist.
    static std::span<const std::string_view> default_blocklist();

    // Validates in the spec's order, throwing Error(invalid_parameter) with the spec's messages. Blocklist words
    // are UTF-8; nullopt means the default list.
    Sqids(std::string_view alphabet, int min_length,
          std::optional<std::span<const std::string_view>> blocklist = std::nullopt, StopToken stop = {});

    // An empty list encodes to "". Throws Error(invalid_parameter) "Reached max attempts to re-generate the ID"
    // when every offset gives a blocked ID.
    void encode(std::span<const std::uint64_t> numbers, std::string& id, StopToken stop = {}) const;
    std::string encode(std::span<const std::uint64_t> numbers) const;

    // The spec's decode: the numbers read before the first empty part; nothing for a character outside the
    // alphabet or a number above 2^64-1. With `canonical`, also nothing unless encode gives back exactly `id`.
    void decode(std::string_view id, std::vector<std::uint64_t>& numbers, bool canonical = false,
                StopToken stop = {}) const;

    std::size_t footprint() const noexcept;

private:
    // The alphabet of one position of an ID, for one offset: step 0 is the rotated and reversed alphabet, each
    // later step the shuffle of the one before.
    struct Step {
        std::string alphabet;
        std::array<std::uint8_t, 256> position;  // index of each byte in `alphabet`, or absent

        std::size_t bytes() const noexcept { return heap_bytes(sizeof(Step)) + heap_bytes(alphabet); }
    };

    auto walk(std::size_t offset) const;
    // The index in alphabet_ of an ID's first character, for the given attempt (at most alphabet_.size()).
    std::size_t offset_of(std::span<const std::uint64_t> numbers, std::size_t increment, StopToken stop) const;
    // The ID of `numbers` that starts at `offset`, to a TextOut or MatchOut.
    template <class Out>
    void write(std::span<const std::uint64_t> numbers, std::size_t offset, Out& out, StopToken stop) const;
    bool encode_with_increment(std::span<const std::uint64_t> numbers, std::size_t increment, std::string& id,
                               StopToken stop) const;
    // Whether encode(numbers) gives exactly `id` (`numbers` decoded from it; `plain` as decode found it).
    bool is_canonical(std::span<const std::uint64_t> numbers, std::string_view id, bool plain, StopToken stop) const;
    // The same for any `id`, as is_canonical does for IDs that are not plain.
    bool encodes_to(std::span<const std::uint64_t> numbers, std::string_view id, StopToken stop) const;

    std::string alphabet_;                    // shuffled once
    std::array<std::uint8_t, 256> position_;  // index of each byte in alphabet_, or absent
    int min_length_;
    Blocklist blocklist_;
    Divisor length_{2};  // alphabet_.size()
    Divisor base_{2};    // alphabet_.size() - 1: the first character of each step is the separator
    mutable StepMemo<Step> steps_;
};

}  // namespace idcodec
