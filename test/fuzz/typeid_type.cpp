// libFuzzer target: the typeid type's inputs. Binary input (load_type_id) on arbitrary bytes: what it accepts is a
// valid prefix and 16 bytes, stores back to the very bytes, and its text reads back to the same value. Text input
// (parse_type_id) on the same bytes as text: what it accepts stores and loads back to the same value.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids/time_ordered.hpp"

using namespace idcodec::time_ordered;

namespace {

bool same(const TypeId& a, const TypeId& b) { return a.prefix == b.prefix && a.uuid == b.uuid && compare(a, b) == 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    if (const std::optional<TypeId> loaded = load_type_id(bytes)) {
        if (!is_type_prefix(loaded->prefix) || stored_type_id_size(loaded->prefix) != size) __builtin_trap();
        std::vector<std::uint8_t> stored(size);
        store_type_id(*loaded, stored);
        if (!std::equal(stored.begin(), stored.end(), bytes.begin())) __builtin_trap();
        std::string text(type_id_length(loaded->prefix), ' ');
        write_type_id(loaded->prefix, loaded->uuid, text);
        const std::optional<TypeId> parsed = parse_type_id(text);
        if (!parsed || !same(*parsed, *loaded)) __builtin_trap();
    } else if (size >= 16 && size - 16 <= max_prefix_length &&
               is_type_prefix(std::string_view(reinterpret_cast<const char*>(data), size - 16))) {
        __builtin_trap();  // a valid prefix and 16 bytes refused
    }
    if (const std::optional<TypeId> parsed =
            parse_type_id(std::string_view(reinterpret_cast<const char*>(data), size))) {
        std::vector<std::uint8_t> stored(stored_type_id_size(parsed->prefix));
        store_type_id(*parsed, stored);
        const std::optional<TypeId> loaded = load_type_id(stored);
        if (!loaded || !same(*loaded, *parsed)) __builtin_trap();
    }
    return 0;
}
