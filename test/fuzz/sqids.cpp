// libFuzzer target: sqids decoding of arbitrary bytes under arbitrary settings and blocklists, canonical decoding
// and encode/decode round trips.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "core/ids/sqids.hpp"

#include "fuzz_input.hpp"

using idcodec::fuzz::read_numbers;
using idcodec::fuzz::take_field;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const int min_length = data[0] % 64;
    const bool default_blocklist = data[1] & 1;
    std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
    std::string_view alphabet = take_field(input);
    if (alphabet.size() < 3) alphabet = idcodec::Sqids::default_alphabet;
    std::vector<std::string_view> words;
    for (std::string_view list = take_field(input); !list.empty();) {
        const std::size_t comma = list.find(',');
        words.push_back(list.substr(0, comma));
        list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
    }

    try {
        const idcodec::Sqids sqids(
            alphabet, min_length,
            default_blocklist ? std::nullopt : std::optional<std::span<const std::string_view>>(words));
        std::vector<std::uint64_t> numbers;
        sqids.decode(input, numbers, false);
        std::vector<std::uint64_t> canonical;
        sqids.decode(input, canonical, true);
        // Canonical decoding keeps exactly the IDs encode gives back.
        bool encodes_back = false;
        if (!numbers.empty()) {
            try {
                encodes_back = sqids.encode(numbers) == input;
            } catch (const idcodec::Error&) {
                // every attempt blocked: no ID is canonical
            }
        }
        if (canonical != (encodes_back ? numbers : std::vector<std::uint64_t>{})) __builtin_trap();

        numbers = read_numbers(input, 6);
        std::string id;
        sqids.encode(numbers, id);
        std::vector<std::uint64_t> decoded;
        sqids.decode(id, decoded, true);
        if (decoded != numbers) __builtin_trap();
    } catch (const idcodec::Error&) {
        // invalid settings, or every offset blocked: reported, not crashes
    }
    return 0;
}
