// libFuzzer target: the TypeID and ULID decoders on arbitrary text. What decodes must encode back: a TypeID to the
// very text (its reading is strict), a ULID to the canonical uppercase text of the same value; a prefix the decoder
// accepts is one the encoder accepts; and any 16 bytes survive both encodings.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/common/error.hpp"
#include "core/ids/time_ordered.hpp"

using namespace idcodec::time_ordered;

namespace {

std::string type_id_text(std::string_view prefix, const Uuid& uuid) {
    check_type_prefix(prefix);
    std::string text(type_id_length(prefix), ' ');
    write_type_id(prefix, uuid, text);
    return text;
}

std::string ulid_text(const Uuid& uuid) {
    std::string text(idcodec::crockford::text_length, ' ');
    ulid(uuid, std::span<char, idcodec::crockford::text_length>(text.data(), text.size()));
    return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    if (const std::optional<TypeId> parsed = parse_type_id(input)) {
        if (type_id_text(parsed->prefix, parsed->uuid) != input) __builtin_trap();
    }
    if (const std::optional<Uuid> uuid = parse_ulid(input)) {
        const std::string canonical = ulid_text(*uuid);
        if (parse_ulid(canonical) != uuid || canonical.size() != input.size()) __builtin_trap();
    }
    if (size >= 16) {
        Uuid uuid;
        std::memcpy(uuid.data(), data, 16);
        if (parse_ulid(ulid_text(uuid)) != uuid) __builtin_trap();
        const std::string_view prefix = input.substr(16);
        try {
            const std::string text = type_id_text(prefix, uuid);
            const std::optional<TypeId> back = parse_type_id(text);
            if (!back || back->uuid != uuid || back->prefix != prefix) __builtin_trap();
        } catch (const idcodec::Error&) {
            if (is_type_prefix(prefix)) __builtin_trap();  // refused only when the prefix is bad
        }
    }
    return 0;
}
