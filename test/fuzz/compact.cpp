// libFuzzer target: the compact-identifier decoders on arbitrary bytes and alphabets, and round trips.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/compact.hpp"
#include "core/error.hpp"

using namespace idcodec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t split = input.find('\xff');
    const std::string_view alphabet_text = input.substr(0, split);
    const std::string_view code = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
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
        compact::parse_hex(code, bytes);
        compact::shortcode_candidates(code, 1 + static_cast<int>(size % 8), static_cast<std::int64_t>(size % 3),
                                      alphabet);
    } catch (const Error&) {
        // an invalid alphabet is reported, not a crash
    }
    return 0;
}
