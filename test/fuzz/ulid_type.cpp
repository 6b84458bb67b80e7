// libFuzzer target: the ulid type's text input (a ULID, or a UUID's standard text) on arbitrary text. What it reads
// must be what the ULID or the hex digits say: a ULID reads as parse_ulid does, a UUID's text as its 32 hex digits,
// and the canonical ULID of the result reads back to the same bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/hex.hpp"
#include "core/ids/time_ordered.hpp"

using namespace idcodec::time_ordered;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::optional<Uuid> read = parse_ulid_or_uuid(input);
    if (size == idcodec::crockford::text_length) {
        if (read != parse_ulid(input)) __builtin_trap();
    } else if (read) {
        // only the standard form: 36 characters, hyphens at 8, 13, 18 and 23, hex digits elsewhere
        if (size != 36) __builtin_trap();
        std::string digits;
        for (std::size_t k = 0; k < size; ++k) {
            const bool hyphen_place = k == 8 || k == 13 || k == 18 || k == 23;
            if (hyphen_place != (input[k] == '-')) __builtin_trap();
            if (!hyphen_place) digits += input[k];
        }
        Uuid expected;
        if (!idcodec::parse_hex(digits, expected) || expected != *read) __builtin_trap();
    }
    if (read) {
        std::string canonical(idcodec::crockford::text_length, ' ');
        ulid(*read, std::span<char, idcodec::crockford::text_length>(canonical.data(), canonical.size()));
        if (parse_ulid_or_uuid(canonical) != read) __builtin_trap();
    }
    return 0;
}
