// typeid's abbreviated keys against the type's reference order (the prefix's bytes, a zero byte, the UUID's bytes):
// whatever order a sort meets the values in, a smaller key always means a smaller value.
#include <algorithm>
#include <compare>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "core/ids/typeid_abbreviation.hpp"

namespace idcodec::time_ordered {
namespace {

std::vector<std::uint8_t> reference_bytes(const TypeId& type_id) {
    std::vector<std::uint8_t> bytes(type_id.prefix.begin(), type_id.prefix.end());
    bytes.push_back(0);
    bytes.insert(bytes.end(), type_id.uuid.begin(), type_id.uuid.end());
    return bytes;
}

struct Keyed {
    TypeId value;
    std::uint64_t key;
};

// Every value keyed once, in the order given, by one abbreviator (as one sort keys its rows).
std::vector<Keyed> keyed_in_order(const std::vector<TypeId>& values) {
    TypeIdAbbreviator abbreviator;
    std::vector<Keyed> keyed;
    for (const TypeId& value : values) keyed.push_back({value, abbreviator.key(value)});
    return keyed;
}

// Fails on any pair whose keys contradict the reference order; returns the share of pairs of different values the
// keys decide.
double share_decided(const std::vector<Keyed>& keyed) {
    std::size_t pairs = 0, decided = 0;
    for (const Keyed& a : keyed) {
        for (const Keyed& b : keyed) {
            const auto order = reference_bytes(a.value) <=> reference_bytes(b.value);
            if (order == 0) continue;
            ++pairs;
            if (a.key == b.key) continue;
            ++decided;
            EXPECT_EQ(a.key < b.key, order < 0) << "'" << a.value.prefix << "' and '" << b.value.prefix << "'";
            if ((a.key < b.key) != (order < 0)) return 0;
        }
    }
    return pairs == 0 ? 1 : static_cast<double>(decided) / static_cast<double>(pairs);
}

Uuid filled(std::uint8_t byte) {
    Uuid uuid;
    uuid.fill(byte);
    return uuid;
}

// Prefixes that share their first 8 and 12 characters, that begin others, '_' against letters, none, 63 letters;
// UUIDs that share their first 8 bytes, or differ only in the bits past those a key keeps.
std::vector<TypeId> adversarial_values(const std::vector<std::string>& prefixes) {
    std::vector<Uuid> uuids = {filled(0x00), filled(0xff)};
    for (const std::uint8_t low : {0x00, 0x01, 0x02, 0x03, 0x04, 0x40, 0xff}) {
        Uuid uuid = filled(0x5a);
        uuid[7] = low;  // a reference prefix's keys keep 62 bits: they end inside byte 7
        uuids.push_back(uuid);
        uuid[6] = low;  // the other prefixes' keep 48: they end with byte 5
        uuids.push_back(uuid);
        uuid[15] = low;
        uuids.push_back(uuid);
    }
    std::vector<TypeId> values;
    for (const std::string& prefix : prefixes)
        for (const Uuid& uuid : uuids) values.push_back(TypeId{prefix, uuid});
    return values;
}

const std::vector<std::string>& adversarial_prefixes() {
    static const std::vector<std::string> prefixes = {"",
                                                      "a",
                                                      "b",
                                                      "z",
                                                      "aa",
                                                      "ab",
                                                      "a_a",
                                                      "a_b",
                                                      "aab",
                                                      "abcdefgh",
                                                      "abcdefgha",
                                                      "abcdefghz",
                                                      "abcdefgh_z",
                                                      "abcdefghijkl",
                                                      "abcdefghijkla",
                                                      "abcdefghijklm",
                                                      "abcdefghijkl_a",
                                                      "user",
                                                      "users",
                                                      "user_account",
                                                      std::string(62, 'a'),
                                                      std::string(63, 'a'),
                                                      std::string(62, 'a') + "b",
                                                      std::string(63, 'z'),
                                                      std::string(31, 'a') + "_" + std::string(31, 'a')};
    return prefixes;
}

TEST(TypeIdAbbreviation, NeverContradictsTheOrderWhateverTheArrival) {
    std::vector<TypeId> values = adversarial_values(adversarial_prefixes());
    std::mt19937 random(20261128);
    for (int arrival = 0; arrival < 8; ++arrival) {
        if (arrival == 1)
            std::sort(values.begin(), values.end(),
                      [](const TypeId& a, const TypeId& b) { return reference_bytes(a) < reference_bytes(b); });
        if (arrival == 2) std::reverse(values.begin(), values.end());
        if (arrival >= 3) std::shuffle(values.begin(), values.end(), random);
        const double decided = share_decided(keyed_in_order(values));
        ASSERT_GT(decided, 0.9) << "arrival " << arrival;
    }
}

// Each prefix in turn met first, so each is once the reference.
TEST(TypeIdAbbreviation, EachPrefixAsTheReference) {
    const std::vector<TypeId> values = adversarial_values(adversarial_prefixes());
    for (std::size_t first = 0; first < values.size(); first += 23) {
        std::vector<TypeId> arrival = values;
        std::rotate(arrival.begin(), arrival.begin() + static_cast<std::ptrdiff_t>(first), arrival.end());
        ASSERT_GT(share_decided(keyed_in_order(arrival)), 0.9) << "first " << first;
    }
}

std::string letters_of(std::uint32_t number, std::size_t length) {
    std::string prefix(length, 'a');
    for (std::size_t k = length; k-- > 0; number /= 26) prefix[k] = static_cast<char>('a' + number % 26);
    return prefix;
}

// More prefixes than the dictionary holds, met in ascending, descending and shuffled order, and a sequence that
// closes the gap between two codes (each prefix between the last one and a fixed neighbour): keys tie where codes
// run out, never contradict.
TEST(TypeIdAbbreviation, DictionaryFullOrGapClosed) {
    const std::size_t count = TypeIdAbbreviator::capacity * 2 + 20;
    std::vector<TypeId> ascending;
    for (std::uint32_t k = 0; k < count; ++k) {
        Uuid uuid = filled(static_cast<std::uint8_t>(k * 37));
        ascending.push_back(TypeId{"", uuid});
    }
    std::vector<std::string> prefixes;
    for (std::uint32_t k = 0; k < count; ++k) prefixes.push_back(letters_of(k * 97, 4));
    for (std::uint32_t k = 0; k < count; ++k) ascending[k].prefix = prefixes[k];
    // met in order, 55 of the 276 prefixes get codes (the rest tie at the end); shuffled, the dictionary fills up
    std::vector<TypeId> values = ascending;
    EXPECT_GT(share_decided(keyed_in_order(values)), 0.3);
    std::reverse(values.begin(), values.end());
    EXPECT_GT(share_decided(keyed_in_order(values)), 0.3);
    std::shuffle(values.begin(), values.end(), std::mt19937(7));
    EXPECT_GT(share_decided(keyed_in_order(values)), 0.6);

    // after the reference (a prefix after all of them), 'aaaaaa' and then prefixes ever nearer to it from above: each
    // takes the code halfway between 'aaaaaa' and the one before, until no code is left between them
    std::vector<std::string> closing = {"zzzzzzz", letters_of(0, 6)};
    for (std::uint32_t step = std::uint32_t{1} << 24; step > 0; step >>= 1) closing.push_back(letters_of(step, 6));
    std::vector<TypeId> bisecting;
    for (const std::string& prefix : closing)
        for (const std::uint8_t byte : {0x10, 0x80, 0xf0}) bisecting.push_back(TypeId{prefix, filled(byte)});
    const double decided = share_decided(keyed_in_order(bisecting));
    EXPECT_GT(decided, 0.5);
    EXPECT_LT(decided, 1.0);  // the prefixes met after the gap closed tie with their lower neighbour's greatest keys
}

// The reference prefix's keys tell apart UUIDs one version 7 millisecond apart and within one (bit 61); the other
// prefixes' keys tell milliseconds apart (48 bits).
TEST(TypeIdAbbreviation, KeepsUuidBits) {
    TypeIdAbbreviator abbreviator;
    Uuid earlier{}, later{}, within{};
    earlier[5] = 1;
    later[5] = 2;
    within[5] = 1;
    within[7] = 4;
    const std::uint64_t user_earlier = abbreviator.key(TypeId{"user", earlier});
    EXPECT_LT(user_earlier, abbreviator.key(TypeId{"user", within}));
    EXPECT_LT(abbreviator.key(TypeId{"user", within}), abbreviator.key(TypeId{"user", later}));
    EXPECT_LT(abbreviator.key(TypeId{"post", earlier}), abbreviator.key(TypeId{"post", later}));
    EXPECT_LT(abbreviator.key(TypeId{"post", later}), user_earlier);  // 'post' < 'user'
    EXPECT_GT(abbreviator.key(TypeId{"users", earlier}), abbreviator.key(TypeId{"user", filled(0xff)}));
}

// A damaged value's prefix (longer than a valid one can be) is compared like any other and never kept.
TEST(TypeIdAbbreviation, OverlongPrefix) {
    const std::string overlong(200, 'q'), longer = overlong + "r";
    std::vector<TypeId> values = {TypeId{overlong, filled(1)}, TypeId{"p", filled(2)}, TypeId{longer, filled(0)},
                                  TypeId{"r", filled(3)}, TypeId{overlong, filled(0)}};
    share_decided(keyed_in_order(values));
    std::rotate(values.begin(), values.begin() + 1, values.end());
    share_decided(keyed_in_order(values));
}

}  // namespace
}  // namespace idcodec::time_ordered
