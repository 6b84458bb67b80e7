// TypeID and ULID against the TypeID specification's own cases and typeid-js 1.2.0 / ulid 3.0.2 (npm), both ways;
// the lenient reading of ULIDs; the version 7 layout; text order equal to byte order.
#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/ids/time_ordered.hpp"

#include "unit/common/jsonl.hpp"

namespace idcodec::time_ordered {
namespace {

Uuid uuid_of(const std::string& text) {
    Uuid uuid{};
    std::size_t k = 0;
    for (std::size_t pos = 0; pos + 1 < text.size(); ++pos) {
        if (text[pos] == '-') continue;
        uuid[k++] = static_cast<std::uint8_t>(std::stoul(text.substr(pos, 2), nullptr, 16));
        ++pos;
    }
    EXPECT_EQ(k, 16u) << text;
    return uuid;
}

std::string ulid_text(const Uuid& uuid) {
    std::string text(crockford::text_length, ' ');
    ulid(uuid, std::span<char, crockford::text_length>(text.data(), text.size()));
    return text;
}

std::string type_id_text(std::string_view prefix, const Uuid& uuid) {
    check_type_prefix(prefix);
    std::string text(type_id_length(prefix), ' ');
    write_type_id(prefix, uuid, text);
    return text;
}

TEST(TypeIdSpec, EveryValidCaseBothWays) {
    int matched = 0;
    for (const auto& record : test::read_json(test::vectors_dir() + "/typeid/spec-valid.json").items) {
        const Uuid uuid = uuid_of(record["uuid"].text);
        const std::string& prefix = record["prefix"].text;
        EXPECT_EQ(type_id_text(prefix, uuid), record["typeid"].text) << record["name"].text;
        const std::optional<TypeId> parsed = parse_type_id(record["typeid"].text);
        ASSERT_TRUE(parsed.has_value()) << record["name"].text;
        EXPECT_EQ(parsed->prefix, prefix);
        EXPECT_EQ(parsed->uuid, uuid);
        matched += parsed->uuid == uuid && type_id_text(prefix, uuid) == record["typeid"].text;
    }
    EXPECT_EQ(matched, 9);
}

TEST(TypeIdSpec, EveryInvalidCaseRefused) {
    int refused = 0;
    for (const auto& record : test::read_json(test::vectors_dir() + "/typeid/spec-invalid.json").items) {
        EXPECT_FALSE(parse_type_id(record["typeid"].text).has_value()) << record["name"].text;
        refused += !parse_type_id(record["typeid"].text).has_value();
    }
    EXPECT_EQ(refused, 21);
}

TEST(TypeIdOracle, TypeIdAndUlidOf400Uuids) {
    int matched = 0;
    for (const auto& record : test::read_jsonl(test::vectors_dir() + "/typeid/ids-oracle.jsonl")) {
        const Uuid uuid = uuid_of(record["uuid"].text);
        const std::string& typeid_text = record["typeid"].text;
        const std::string& ulid_expected = record["ulid"].text;
        EXPECT_EQ(type_id_text(record["prefix"].text, uuid), typeid_text);
        EXPECT_EQ(ulid_text(uuid), ulid_expected);
        const std::optional<TypeId> parsed = parse_type_id(typeid_text);
        const std::optional<Uuid> from_ulid = parse_ulid(ulid_expected);
        EXPECT_TRUE(parsed && parsed->uuid == uuid && parsed->prefix == record["prefix"].text) << typeid_text;
        EXPECT_EQ(from_ulid, uuid) << ulid_expected;
        EXPECT_EQ(unix_ms(uuid), std::stoull(record["ulid_ms"].text)) << ulid_expected;
        matched += parsed && parsed->uuid == uuid && from_ulid == uuid && ulid_text(uuid) == ulid_expected &&
                   type_id_text(record["prefix"].text, uuid) == typeid_text;
    }
    EXPECT_EQ(matched, 400);
}

TEST(Ulid, ReadsEitherCaseAndCrockfordAliasesButNothingElse) {
    const Uuid uuid = *parse_ulid("01H455VB4PEX5VSKNK084SN02Q");
    EXPECT_EQ(parse_ulid("01h455vb4pex5vsknk084sn02q"), uuid);
    EXPECT_EQ(parse_ulid("O1H455VB4PEX5VSKNK084SNO2Q"), uuid);  // O for 0
    EXPECT_EQ(*parse_ulid("0000000000000000000000000I"), *parse_ulid("00000000000000000000000001"));
    EXPECT_EQ(*parse_ulid("0000000000000000000000000l"), *parse_ulid("00000000000000000000000001"));
    EXPECT_TRUE(parse_ulid("7ZZZZZZZZZZZZZZZZZZZZZZZZZ").has_value());
    for (const char* bad : {"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01H455VB4PEX5VSKNK084SN02", "01H455VB4PEX5VSKNK084SN02QQ",
                            "01H455VB4PEX5VSKNK084SN02U", "01H455VB4PEX5VSKNK084SN0-Q", ""})
        EXPECT_FALSE(parse_ulid(bad).has_value()) << bad;
    // TypeID reads strictly: no uppercase, no aliases
    EXPECT_FALSE(parse_type_id("01H455VB4PEX5VSKNK084SN02Q").has_value());
    EXPECT_FALSE(parse_type_id("o1h455vb4pex5vsknk084sn02q").has_value());
}

TEST(TypeId, RefusesForbiddenPrefixes) {
    const Uuid uuid{};
    for (const std::string& prefix :
         std::vector<std::string>{"User", "user1", "_user", "user_", "us-er", std::string(64, 'a'), "é"})
        EXPECT_THROW(type_id_text(prefix, uuid), Error) << prefix;
    EXPECT_EQ(type_id_text(std::string(63, 'a'), uuid).size(), 63u + 1 + 26);
    EXPECT_EQ(type_id_text("", uuid), "00000000000000000000000000");
}

TEST(UuidV7, Layout) {
    const std::uint8_t random[8] = {0xff, 1, 2, 3, 4, 5, 6, 7};
    const Uuid uuid = uuid_v7(0x0123456789ab, 0xabc, random);
    EXPECT_EQ(uuid, (Uuid{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0x7a, 0xbc, 0xbf, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(unix_ms(uuid), 0x0123456789abu);
}

// Successive UUIDs of one process are in strict order under a fast clock (readings 100 ns apart, less than one
// 1/4096 ms step of the fraction: with only "move on when not after the last", about 30% of the pairs were out of
// order), under a clock that stands still or is set back, and with a clock that jumps ahead they follow it.
TEST(UuidV7, StrictlyIncreasingWhateverTheClock) {
    std::uint64_t state = 7;
    const auto uuid_at = [&](V7Clock& clock, std::int64_t reading) {
        std::uint8_t random[8];
        for (auto& byte : random) byte = static_cast<std::uint8_t>((state = state * 6364136223846793005u + 1) >> 56);
        const std::int64_t ns = clock.next(reading);
        return uuid_v7_at(static_cast<std::uint64_t>(ns / 1'000'000), static_cast<std::uint32_t>(ns % 1'000'000),
                          random);
    };
    const std::int64_t start = 1'767'225'600'000'000'000;  // 2026-01-01
    for (const std::int64_t tick : {100, 0, 1, 244, 245, -50}) {
        V7Clock clock;
        Uuid previous = uuid_at(clock, start);
        int out_of_order = 0;
        for (int k = 1; k <= 20'000; ++k) {
            const Uuid uuid = uuid_at(clock, start + tick * k);
            out_of_order += !(previous < uuid);
            previous = uuid;
        }
        EXPECT_EQ(out_of_order, 0) << "a clock moving " << tick << " ns a call";
    }
    V7Clock clock;
    const Uuid first = uuid_at(clock, start);
    const Uuid later = uuid_at(clock, start + 5'000'000'000);
    EXPECT_EQ(unix_ms(later) - unix_ms(first), 5000u);  // a reading well after the last is taken as it is
}

// The fraction is the nanoseconds times 4096 / 10^6, rounded down: 244 ns is 0.999 of a 1/4096 step (0), 245 ns is
// 1.004 (1), 999,999 ns is 4095.996 (4095, the last). The time is whole up to the last 48-bit millisecond, far past
// 2262, where nanoseconds since 1970 no longer fit in 63 bits.
TEST(UuidV7, FractionAndTimeAtTheEdges) {
    const std::array<std::uint8_t, 8> zero{};
    const auto fraction = [&](std::uint32_t ns_in_ms) {
        const Uuid uuid = uuid_v7_at(0, ns_in_ms, zero);
        return (uuid[6] & 0x0f) << 8 | uuid[7];
    };
    EXPECT_EQ(fraction(0), 0);
    EXPECT_EQ(fraction(244), 0);
    EXPECT_EQ(fraction(245), 1);
    EXPECT_EQ(fraction(500'000), 2048);
    EXPECT_EQ(fraction(999'999), 4095);
    EXPECT_EQ(uuid_v7_at(max_unix_ms, 999'999, zero), uuid_of("ffffffff-ffff-7fff-8000-000000000000"));
    // 2^63 ns = 9,223,372,036,854.775808 ms: the millisecond after it, 9,223,372,036,855 = 0x0863_7BD0_5AF7
    EXPECT_EQ(uuid_v7_at(9'223'372'036'855, 0, zero), uuid_of("08637bd0-5af7-7000-8000-000000000000"));
}

// The digits are in ASCII order, so text compares as the bytes do (what makes ULIDs and TypeIDs sortable).
TEST(Crockford, TextOrderIsByteOrder) {
    std::vector<Uuid> uuids;
    std::uint64_t state = 99;
    for (int k = 0; k < 2000; ++k) {
        Uuid uuid;
        for (auto& byte : uuid) byte = static_cast<std::uint8_t>((state = state * 6364136223846793005u + 1) >> 56);
        if (k % 3 == 0) uuid[0] = uuid[1] = 0;  // long common prefixes
        uuids.push_back(uuid);
    }
    for (std::size_t k = 1; k < uuids.size(); ++k)
        EXPECT_EQ(uuids[k - 1] < uuids[k], ulid_text(uuids[k - 1]) < ulid_text(uuids[k]));
}

// What the ulid type reads: a ULID in any accepted form, or the standard text of a UUID for the same bytes.
TEST(UlidType, ReadsUlidsAndUuidText) {
    const Uuid uuid = uuid_of("01890a5d-ac96-774b-bcce-b302099a8057");
    EXPECT_EQ(parse_ulid_or_uuid("01890a5d-ac96-774b-bcce-b302099a8057"), uuid);
    EXPECT_EQ(parse_ulid_or_uuid("01890A5D-AC96-774B-BCCE-B302099A8057"), uuid);
    EXPECT_EQ(parse_ulid_or_uuid(ulid_text(uuid)), uuid);
    for (const char* bad : {"", "01890a5d-ac96-774b-bcce-b302099a805", "01890a5dac96774bbcceb302099a8057",
                            "01890a5d-ac96-774b-bcce-b302099a805g", "{01890a5d-ac96-774b-bcce-b302099a8057}",
                            "01890a5d-ac96-774b-bcce-b302099a80-7", "01890a5d-ac96-774b-bcceb-302099a8057"})
        EXPECT_FALSE(parse_ulid_or_uuid(bad).has_value()) << bad;
}

TEST(TypeIdType, StoredFormRoundTripsAndChecksThePrefix) {
    const Uuid uuid = uuid_of("01890a5d-ac96-774b-bcce-b302099a8057");
    for (const std::string& prefix : {std::string(), std::string("user"), std::string("a_b"), std::string(63, 'q')}) {
        std::vector<std::uint8_t> stored(stored_type_id_size(prefix));
        store_type_id(TypeId{prefix, uuid}, stored);
        const std::optional<TypeId> loaded = load_type_id(stored);
        ASSERT_TRUE(loaded.has_value()) << prefix;
        EXPECT_EQ(loaded->prefix, prefix);
        EXPECT_EQ(loaded->uuid, uuid);
    }
    for (const std::string_view bad :
         {std::string_view("User"), std::string_view("_a"), std::string_view("a_"), std::string_view("a\0b", 3)}) {
        std::vector<std::uint8_t> stored(bad.size() + 16);
        std::copy(bad.begin(), bad.end(), stored.begin());
        EXPECT_FALSE(load_type_id(stored).has_value()) << bad;
    }
    // no prefix at all, as the parser gives it for a TypeID without one (a view without data)
    const std::optional<TypeId> bare = parse_type_id("01h455vb4pex5vsknk084sn02q");
    ASSERT_TRUE(bare.has_value());
    std::vector<std::uint8_t> stored(16);
    store_type_id(*bare, stored);
    EXPECT_EQ(load_type_id(stored)->uuid, uuid);
    EXPECT_FALSE(load_type_id(std::vector<std::uint8_t>(15)).has_value());
    EXPECT_FALSE(load_type_id(std::vector<std::uint8_t>(16 + 64, 'a')).has_value());
    EXPECT_TRUE(load_type_id(std::vector<std::uint8_t>(16 + 63, 'a')).has_value());
}

TEST(TypeIdType, OrderIsPrefixThenUuid) {
    const Uuid low = uuid_of("00000000-0000-7000-8000-000000000000");
    const Uuid high = uuid_of("ffffffff-ffff-7fff-bfff-ffffffffffff");
    EXPECT_LT(compare(TypeId{"user", high}, TypeId{"users", low}), 0);  // a shorter prefix it begins comes first
    EXPECT_LT(compare(TypeId{"", high}, TypeId{"a", low}), 0);
    EXPECT_LT(compare(TypeId{"post", high}, TypeId{"user", low}), 0);
    EXPECT_LT(compare(TypeId{"user", low}, TypeId{"user", high}), 0);
    EXPECT_EQ(compare(TypeId{"user", low}, TypeId{"user", low}), 0);
    EXPECT_GT(compare(TypeId{"user_a", low}, TypeId{"user", high}), 0);
}

// Python's uuid module (an independent implementation) gives 1998-02-04 22:13:53.151182 for this version 1 UUID.
TEST(UuidTime, VersionsAndTimes) {
    const Uuid v1 = uuid_of("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    EXPECT_EQ(rfc_version(v1), 1);
    EXPECT_EQ(unix_us(v1), 886'630'433'151'182);
    const Uuid v7 = uuid_of("01890a5d-ac96-774b-bcce-b302099a8057");
    EXPECT_EQ(rfc_version(v7), 7);
    EXPECT_EQ(unix_us(v7), std::int64_t{0x01890a5dac96} * 1000);
    EXPECT_EQ(rfc_version(uuid_of("01890a5d-ac96-774b-7cce-b302099a8057")), std::nullopt);  // variant 0
    EXPECT_EQ(rfc_version(uuid_of("01890a5d-ac96-474b-bcce-b302099a8057")), 4);
    EXPECT_EQ(unix_us(uuid_of("01890a5d-ac96-474b-bcce-b302099a8057")), std::nullopt);
}

TEST(UuidTime, LeastAndGreatestOfAMillisecond) {
    EXPECT_EQ(least_v7(0x01890a5dac96), uuid_of("01890a5d-ac96-7000-8000-000000000000"));
    EXPECT_EQ(greatest_v7(0x01890a5dac96), uuid_of("01890a5d-ac96-7fff-bfff-ffffffffffff"));
    EXPECT_EQ(least_ulid(max_unix_ms), uuid_of("ffffffff-ffff-0000-0000-000000000000"));
    EXPECT_EQ(greatest_ulid(0), uuid_of("00000000-0000-ffff-ffff-ffffffffffff"));
    // every version 7 UUID of the millisecond lies between them
    std::array<std::uint8_t, 8> random{};
    for (const std::uint8_t fill : {0x00, 0x5a, 0xff}) {
        random.fill(fill);
        for (const std::uint16_t sub_ms : {0, 2048, 4095}) {
            const Uuid uuid = uuid_v7(0x01890a5dac96, sub_ms, random);
            EXPECT_LE(least_v7(0x01890a5dac96), uuid);
            EXPECT_GE(greatest_v7(0x01890a5dac96), uuid);
        }
    }
}

}  // namespace
}  // namespace idcodec::time_ordered
