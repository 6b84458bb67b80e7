// libFuzzer target: typeid's abbreviated keys. The input is a sequence of TypeIDs (fields split at 0xFF: a field's
// first 16 bytes are the UUID, the rest its prefix, each byte read as '_' or a letter, so prefixes of any length up
// to the field's, the damaged too long ones included), keyed in that order by one abbreviator as one sort keys its
// rows. No two keys may contradict the values' order, and equal values must have equal keys.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids/typeid_abbreviation.hpp"

#include "fuzz_input.hpp"

using namespace idcodec::time_ordered;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> prefixes;
    std::vector<Uuid> uuids;
    while (!input.empty() && prefixes.size() < 400) {
        const std::string_view field = idcodec::fuzz::take_field(input);
        Uuid uuid{};
        for (std::size_t k = 0; k < uuid.size() && k < field.size(); ++k) uuid[k] = static_cast<std::uint8_t>(field[k]);
        std::string prefix;
        for (std::size_t k = uuid.size(); k < field.size(); ++k) {
            const unsigned code = static_cast<std::uint8_t>(field[k]) % 27;
            prefix.push_back(code == 0 ? '_' : static_cast<char>('a' + code - 1));
        }
        prefixes.push_back(std::move(prefix));
        uuids.push_back(uuid);
    }
    TypeIdAbbreviator abbreviator;
    std::vector<TypeId> values;
    std::vector<std::uint64_t> keys;
    for (std::size_t k = 0; k < prefixes.size(); ++k) {
        values.push_back(TypeId{prefixes[k], uuids[k]});
        keys.push_back(abbreviator.key(values.back()));
    }
    for (std::size_t a = 0; a < values.size(); ++a) {
        for (std::size_t b = 0; b < values.size(); ++b) {
            const int order = compare(values[a], values[b]);
            if (order == 0 && keys[a] != keys[b]) __builtin_trap();
            if (keys[a] < keys[b] && order >= 0) __builtin_trap();
        }
    }
    return 0;
}
