// libFuzzer target: the compact-identifier decoders on arbitrary bytes and alphabets, and round trips.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/error.hpp"
#include "core/common/hex.hpp"
#include "core/ids/compact.hpp"

#include "fuzz_input.hpp"

using namespace idcodec;
using idcodec::fuzz::take_field;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The alphabet, then after the first 0xFF byte (if any) the code.
    std::string_view code(reinterpret_cast<const char*>(data), size);
    const std::string_view alphabet_text = take_field(code);
    try {
        const Alphabet alphabet(alphabet_text, "fuzz");
        if (const auto number = compact::decode_number(code, alphabet)) {
            std::string again;
            compact::encode_number(*number, alphabet, again);
            if (compact::decode_number(again, alphabet) != number) __builtin_trap();
        }
        if (const auto number = compact::unmixup(code, alphabet)) {
            std::string again;
            compact::mixup(*number, alphabet, again);
            if (compact::unmixup(again, alphabet) != number) __builtin_trap();
        }
        if (alphabet.size() == 64) {
            std::array<std::uint8_t, 16> uuid;
            if (compact::unpack6(code, alphabet, uuid)) {
                std::string again;
                compact::pack6(uuid, alphabet, again);
                if (again != code) __builtin_trap();  // one text per value
            }
            std::array<std::uint8_t, 12> object_id;
            compact::unpack6(code, alphabet, object_id);
        }
        std::array<std::uint8_t, 12> bytes;
        parse_hex(code, bytes);
        compact::shortcode_candidates(code, 1 + static_cast<int>(size % 8), static_cast<std::int64_t>(size % 3),
                                      alphabet);
    } catch (const Error&) {
        // an invalid alphabet is reported, not a crash
    }
    return 0;
}
