// libFuzzer target: hashids decoding of arbitrary bytes under arbitrary settings, and encode/decode round trips.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "core/ids/hashids.hpp"

#include "fuzz_input.hpp"

using idcodec::fuzz::read_numbers;
using idcodec::fuzz::take_field;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const int min_length = data[0] % 40;
    std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
    // The input is split at the first two 0xFF bytes into salt, alphabet and the rest.
    const std::string_view salt = take_field(input);
    std::string_view alphabet = take_field(input);
    if (alphabet.size() < 16) alphabet = idcodec::Hashids::default_alphabet;

    try {
        const idcodec::Hashids hashids(salt, alphabet);
        std::vector<std::uint64_t> numbers;
        std::string id;
        if (hashids.decode(input, min_length, numbers)) {
            hashids.encode(numbers, min_length, id);
            if (id != input) __builtin_trap();
        }
        // The rest, read as numbers, must round-trip.
        numbers = read_numbers(input, 8);
        hashids.encode(numbers, min_length, id);
        std::vector<std::uint64_t> decoded;
        if (!numbers.empty() && (!hashids.decode(id, min_length, decoded) || decoded != numbers)) __builtin_trap();
        std::string hex;
        hashids.decode_hex(input, min_length, hex);
    } catch (const idcodec::Error&) {
        // invalid settings (bad UTF-8, too few unique characters) are reported, not crashes
    }
    return 0;
}
