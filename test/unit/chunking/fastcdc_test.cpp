// The FastCDC family against fastcdc-rs 4.0.1: every fastcdc-* block of chunking.txt, facts from the reference's
// own tests, straightforward transcriptions of its loops on many random inputs (the library scans in parallel
// lanes), the streaming contract, the Gear rolling hash and the settings checks.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "core/chunking/cdc.hpp"
#include "core/chunking/fastcdc.hpp"
#include "core/common/error.hpp"

#include "unit/chunking/chunking_support.hpp"
#include "unit/chunking/fastcdc_reference.hpp"

namespace idcodec::cdc {
namespace {

using namespace test;

ChunkerSettings sizes(std::size_t min, std::size_t avg, std::size_t max) { return {min, avg, max, 0, 0}; }

// ---- chunking.txt ----

struct Block {
    std::string algorithm;  // fastcdc-v2020, fastcdc-v2016, fastcdc-ronomon
    ChunkerSettings settings;
    std::vector<Chunk> chunks;
};

// The fastcdc-* blocks: min avg max, and the reference's gear hash on every chunk.
std::vector<Block> fastcdc_blocks() {
    std::vector<Block> blocks;
    for (const VectorBlock& block : chunking_blocks()) {
        const std::string& name = block.algorithm;
        if (name != "fastcdc-v2020" && name != "fastcdc-v2016" && name != "fastcdc-ronomon") continue;
        if (block.params.size() != 3) throw std::runtime_error("bad block header: # " + name);
        for (const Chunk& chunk : block.chunks)
            if (!chunk.hash) throw std::runtime_error("chunk line without a hash in " + name);
        blocks.push_back({name, sizes(block.params[0], block.params[1], block.params[2]), block.chunks});
    }
    return blocks;
}

std::string_view chunker_name(std::string_view block_algorithm) {
    if (block_algorithm == "fastcdc-v2020") return "fastcdc";
    if (block_algorithm == "fastcdc-v2016") return "fastcdc2016";
    if (block_algorithm == "fastcdc-ronomon") return "ronomon";
    throw std::runtime_error("unknown block " + std::string(block_algorithm));
}

TEST(FastCdcVectors, EveryChunkOfChunkingTxt) {
    const auto blocks = fastcdc_blocks();
    ASSERT_EQ(blocks.size(), 15u);  // five settings for each of v2020, v2016 and ronomon
    std::size_t matched = 0, total = 0;
    for (const Block& block : blocks) {
        SCOPED_TRACE(block.algorithm + " " + std::to_string(block.settings.min_size) + " " +
                     std::to_string(block.settings.avg_size) + " " + std::to_string(block.settings.max_size));
        const auto chunker = make_fastcdc(chunker_name(block.algorithm), block.settings);
        const auto chunks = chunk_all(*chunker, sekien());
        EXPECT_EQ(chunks, block.chunks);
        total += block.chunks.size();
        for (std::size_t i = 0; i < std::min(chunks.size(), block.chunks.size()); ++i)
            matched += chunks[i] == block.chunks[i];
        // The same chunks when fed lookahead() bytes at a time.
        EXPECT_EQ(chunk_streaming(*chunker, sekien()), block.chunks);
    }
    EXPECT_EQ(matched, total);
    std::cout << "[          ] " << matched << " of " << total << " chunking.txt FastCDC chunks matched\n";
}

// Every block of fastcdc-levels.txt: fastcdc-rs v2020's with_level_and_seed on the test image, through the factory
// as cdc_chunks calls it (the seed as bigint bits), and through the reference loop.
TEST(FastCdcVectors, EveryLevelAndSeedOfFastcdcLevelsTxt) {
    const auto blocks = read_blocks("fastcdc-levels.txt");
    ASSERT_EQ(blocks.size(), 64u);  // four size triples x levels 0-3 x four seeds
    std::size_t matched = 0, total = 0;
    for (const VectorBlock& block : blocks) {
        ASSERT_EQ(block.algorithm, "fastcdc-v2020");
        ASSERT_EQ(block.params.size(), 5u);
        const auto& p = block.params;
        SCOPED_TRACE(std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) + " level " +
                     std::to_string(p[3]) + " seed " + std::to_string(p[4]));
        const ChunkerArguments arguments{static_cast<std::int64_t>(p[0]),
                                         static_cast<std::int64_t>(p[1]),
                                         static_cast<std::int64_t>(p[2]),
                                         static_cast<std::int64_t>(p[4]),
                                         std::nullopt,
                                         static_cast<std::int32_t>(p[3])};
        const auto chunker = make_chunker("fastcdc", arguments);
        const auto chunks = chunk_all(*chunker, sekien());
        EXPECT_EQ(chunks, block.chunks);
        EXPECT_EQ(chunk_streaming(*chunker, sekien()), block.chunks);
        const ChunkerSettings settings{p[0], p[1], p[2], p[4], 0, static_cast<int>(p[3])};
        EXPECT_EQ(chunk_all(reference::FastCdcLoop(reference::FastCdcLoop::Version::v2020, settings), sekien()),
                  block.chunks);
        total += block.chunks.size();
        for (std::size_t i = 0; i < std::min(chunks.size(), block.chunks.size()); ++i)
            matched += chunks[i] == block.chunks[i];
    }
    EXPECT_EQ(matched, total);
    std::cout << "[          ] " << matched << " of " << total << " fastcdc-levels.txt chunks matched\n";
}

// ---- facts from fastcdc-rs's own tests ----

TEST(FastCdcFacts, RoundedLog2) {
    EXPECT_EQ(rounded_log2(0), 0u);
    EXPECT_EQ(rounded_log2(1), 0u);
    EXPECT_EQ(rounded_log2(3), 2u);
    EXPECT_EQ(rounded_log2(5), 2u);
    EXPECT_EQ(rounded_log2(6), 3u);
    EXPECT_EQ(rounded_log2(1024), 10u);
    EXPECT_EQ(rounded_log2(1100), 10u);
    EXPECT_EQ(rounded_log2(1500), 11u);
    EXPECT_EQ(rounded_log2(12288), 14u);
    EXPECT_EQ(rounded_log2(16385), 14u);
    EXPECT_EQ(rounded_log2(24576), 15u);
    EXPECT_EQ(rounded_log2(65535), 16u);
    EXPECT_EQ(rounded_log2(4'194'305), 22u);
}

TEST(FastCdcFacts, AllZerosGiveMaximumChunks) {
    const Bytes zeros(10240, 0);
    for (const char* name : {"fastcdc", "fastcdc2016"}) {
        const auto chunks = chunk_all(*make_fastcdc(name, sizes(64, 256, 1024)), zeros);
        ASSERT_EQ(chunks.size(), 10u) << name;
        for (const Chunk& chunk : chunks) {
            EXPECT_EQ(chunk.length, 1024u) << name;
            EXPECT_EQ(chunk.hash, 14169102344523991076u) << name;
        }
    }
    const auto chunks = chunk_all(*make_fastcdc("ronomon", sizes(64, 256, 1024)), zeros);
    ASSERT_EQ(chunks.size(), 10u);
    for (const Chunk& chunk : chunks) {
        EXPECT_EQ(chunk.length, 1024u);
        EXPECT_EQ(chunk.hash, 3106636015u);
    }
}

TEST(FastCdcFacts, V2020ReportsTheShiftedHashAtEvenCuts) {
    // v2016 and v2020 find the same cuts here; at the even length 17140 v2020's state is v2016's shifted left.
    const auto v2016 = chunk_all(*make_fastcdc("fastcdc2016", sizes(4096, 16384, 65535)), sekien());
    const auto v2020 = chunk_all(*make_fastcdc("fastcdc", sizes(4096, 16384, 65535)), sekien());
    ASSERT_EQ(v2016.size(), 5u);
    ASSERT_EQ(v2020.size(), 5u);
    EXPECT_EQ(v2016[1].length, 17140u);
    EXPECT_EQ(v2016[1].hash, 4098594969649699419u);
    EXPECT_EQ(v2020[1].hash, 4098594969649699419u << 1);
}

TEST(FastCdcFacts, ShortAndEmptyInput) {
    for (const char* name : {"fastcdc", "fastcdc2016", "ronomon"}) {
        const auto chunker = make_fastcdc(name, sizes(4096, 16384, 65536));
        EXPECT_EQ(chunker->lookahead(), 65536u);
        const Bytes small = random_bytes(4096, 1);
        const Cut whole = chunker->cut(small, true);
        EXPECT_EQ(whole.length, 4096u) << name;
        EXPECT_EQ(whole.hash, 0u) << name;
        EXPECT_EQ(chunker->cut({}, true).length, 0u) << name;
    }
}

// Inputs that give cuts at every position of the scan lanes, no cuts at all, and periodic hashes.
std::vector<Bytes> test_inputs() {
    std::vector<Bytes> inputs;
    inputs.push_back(random_bytes(3 << 20, 42));
    Bytes runs = random_bytes(1 << 20, 7);
    for (std::size_t i = 0; i < runs.size(); i += 40'000)
        std::fill_n(runs.begin() + i, std::min<std::size_t>(20'000, runs.size() - i), 0);
    inputs.push_back(runs);
    Bytes periodic(1 << 19);
    for (std::size_t i = 0; i < periodic.size(); ++i)
        periodic[i] = static_cast<std::uint8_t>((i * 7919) % 251 ^ (i / 3000));
    inputs.push_back(periodic);
    return inputs;
}

const std::vector<ChunkerSettings>& test_settings() {
    static const std::vector<ChunkerSettings> settings = {
        sizes(64, 256, 1024),      sizes(64, 256, 65536),      sizes(65, 300, 4097),        sizes(127, 1500, 70001),
        sizes(64, 4096, 1 << 20),  sizes(1001, 8191, 100'003), sizes(4096, 16384, 65536),   sizes(2048, 2048, 2048),
        sizes(8192, 16384, 32768), sizes(1024, 1024, 1 << 20), sizes(16383, 65535, 262147),
    };
    return settings;
}

// Whole-buffer and streaming chunking by the algorithm give the reference loop's chunks on every test input and
// setting.
void expect_reference_chunks(std::string_view algorithm, reference::FastCdcLoop::Version version) {
    for (const Bytes& input : test_inputs())
        for (const ChunkerSettings& s : test_settings()) {
            SCOPED_TRACE(std::to_string(s.min_size) + " " + std::to_string(s.avg_size) + " " +
                         std::to_string(s.max_size));
            const auto chunker = make_fastcdc(algorithm, s);
            const auto expected = chunk_all(reference::FastCdcLoop(version, s), input);
            EXPECT_EQ(chunk_all(*chunker, input), expected);
            EXPECT_EQ(chunk_streaming(*chunker, input), expected);
        }
}

TEST(FastCdcDifferential, V2020MatchesTheReferenceLoop) {
    expect_reference_chunks("fastcdc", reference::FastCdcLoop::Version::v2020);
}

TEST(FastCdcDifferential, V2020LevelsAndSeedsMatchTheReferenceLoop) {
    const Bytes input = random_bytes(1 << 20, 5);
    for (const int level : {0, 2, 3})
        for (const std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{0x0123456789ABCDEF}, ~std::uint64_t{0}})
            for (ChunkerSettings s : {sizes(64, 256, 1024), sizes(4096, 16384, 65536), sizes(1001, 8191, 100'003)}) {
                s.normalization = level;
                s.seed = seed;
                SCOPED_TRACE(std::to_string(s.avg_size) + " level " + std::to_string(level) + " seed " +
                             std::to_string(seed));
                const auto chunker = make_fastcdc("fastcdc", s);
                const auto expected =
                    chunk_all(reference::FastCdcLoop(reference::FastCdcLoop::Version::v2020, s), input);
                EXPECT_EQ(chunk_all(*chunker, input), expected);
                EXPECT_EQ(chunk_streaming(*chunker, input), expected);
            }
}

TEST(FastCdcDifferential, V2016MatchesTheReferenceLoop) {
    expect_reference_chunks("fastcdc2016", reference::FastCdcLoop::Version::v2016);
}

TEST(FastCdcStreaming, RonomonLookaheadIsEnough) {
    for (const Bytes& input : test_inputs())
        for (const ChunkerSettings& s : test_settings()) {
            const auto chunker = make_fastcdc("ronomon", s);
            EXPECT_EQ(chunk_streaming(*chunker, input), chunk_all(*chunker, input));
        }
}

// ---- Gear rolling hash ----

std::uint64_t fresh_gear(std::span<const std::uint8_t> window) {
    std::uint64_t hash = 0;
    for (const std::uint8_t byte : window) hash = (hash << 1) + gear_table()[byte];
    return hash;
}

TEST(GearHash, EqualsAFreshComputationOverTheWindow) {
    const Bytes data = random_bytes(2000, 3);
    for (const std::size_t window : {1, 2, 7, 63, 64, 65, 100, 1000}) {
        SCOPED_TRACE(window);
        const auto hash = std::make_unique<GearHash>(window);
        const std::span<const std::uint8_t> bytes(data);
        EXPECT_EQ(hash->start(bytes.first(window)), fresh_gear(bytes.first(window)));
        for (std::size_t pos = 1; pos + window <= data.size(); ++pos)
            ASSERT_EQ(hash->roll(data[pos - 1], data[pos + window - 1]), fresh_gear(bytes.subspan(pos, window)))
                << "at " << pos;
    }
}

TEST(GearHash, TableAndKnownValues) {
    EXPECT_EQ(gear_table()[0], 0x3b5d3c7d207e37dcu);
    EXPECT_EQ(gear_table()[255], 0xaabd2b2a451504e1u);
    const auto hash = std::make_unique<GearHash>(3);
    const std::uint8_t abc[] = {'a', 'b', 'c'};
    EXPECT_EQ(hash->start(abc), (gear_table()['a'] << 2) + (gear_table()['b'] << 1) + gear_table()['c']);
    EXPECT_EQ(hash->roll('a', 'd'), (gear_table()['b'] << 2) + (gear_table()['c'] << 1) + gear_table()['d']);
}

// ---- settings ----

void expect_invalid(std::string_view algorithm, const ChunkerSettings& settings, const std::string& message) {
    try {
        make_fastcdc(algorithm, settings);
        ADD_FAILURE() << "accepted " << algorithm << " settings; wanted: " << message;
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::invalid_parameter);
        EXPECT_EQ(error.what(), message);
    }
}

TEST(FastCdcSettings, ReferenceBounds) {
    expect_invalid("fastcdc", sizes(63, 256, 1024), "fastcdc min_size must be between 64 and 1048576 (got 63)");
    expect_invalid("fastcdc", sizes(1'048'577, 4'194'304, 16'777'216),
                   "fastcdc min_size must be between 64 and 1048576 (got 1048577)");
    expect_invalid("fastcdc", sizes(64, 255, 1024), "fastcdc avg_size must be between 256 and 4194304 (got 255)");
    expect_invalid("fastcdc", sizes(64, 4'194'305, 16'777'216),
                   "fastcdc avg_size must be between 256 and 4194304 (got 4194305)");
    expect_invalid("fastcdc", sizes(64, 256, 1023), "fastcdc max_size must be between 1024 and 16777216 (got 1023)");
    expect_invalid("fastcdc2016", sizes(64, 256, 16'777'217),
                   "fastcdc2016 max_size must be between 1024 and 16777216 (got 16777217)");
    expect_invalid("ronomon", sizes(63, 256, 1024), "ronomon min_size must be between 64 and 67108864 (got 63)");
    expect_invalid("ronomon", sizes(64, 256, 1'073'741'825),
                   "ronomon max_size must be between 1024 and 1073741824 (got 1073741825)");
    // Accepted at the edges.
    EXPECT_NO_THROW(make_fastcdc("fastcdc", sizes(64, 256, 1024)));
    EXPECT_NO_THROW(make_fastcdc("fastcdc", sizes(1'048'576, 4'194'304, 16'777'216)));
    EXPECT_NO_THROW(make_fastcdc("ronomon", sizes(64, 268'435'456, 1'073'741'824)));
}

TEST(FastCdcSettings, OrderWindowSeedAndName) {
    expect_invalid("fastcdc", sizes(8192, 4096, 65536), "fastcdc min_size must not exceed avg_size (got 8192 > 4096)");
    expect_invalid("ronomon", sizes(4096, 65536, 16384),
                   "ronomon avg_size must not exceed max_size (got 65536 > 16384)");
    expect_invalid("fastcdc", {4096, 16384, 65536, 0, 48},
                   "fastcdc window_size must be NULL or 64, its fixed Gear window (got 48)");
    const auto expect_refused = [](std::string_view algorithm, const ChunkerArguments& arguments,
                                   const std::string& message) {
        try {
            make_chunker(algorithm, arguments);
            ADD_FAILURE() << algorithm << " accepted what it has no use for; expected: " << message;
        } catch (const Error& error) {
            EXPECT_EQ(error.what(), message);
        }
    };
    for (const std::string_view algorithm : {"fastcdc2016", "ronomon", "moving_sum"})
        expect_refused(algorithm, {4096, 16384, 65536, 7},
                       "cdc_chunks " + std::string(algorithm) + " takes no seed (got 7)");
    for (const std::string_view algorithm : {"fastcdc2016", "ronomon", "rabin", "buzhash", "moving_sum"})
        expect_refused(
            algorithm, {4096, 16384, 65536, 0, std::nullopt, 2},
            "cdc_chunks " + std::string(algorithm) + " has no normalization level, only fastcdc has (got 2)");
    expect_refused("fastcdc", {4096, 16384, 65536, 0, std::nullopt, 4},
                   "fastcdc normalization must be between 0 and 3 (got 4)");
    expect_refused("fastcdc", {4096, 16384, 65536, 0, std::nullopt, -1},
                   "fastcdc normalization must be between 0 and 3 (got -1)");
    EXPECT_NO_THROW(make_chunker("fastcdc", {4096, 16384, 65536, -1, std::nullopt, 0}));
    expect_invalid("FastCDC", sizes(4096, 16384, 65536),
                   "FastCDC algorithm must be fastcdc, fastcdc2016 or ronomon (got \"FastCDC\")");
    EXPECT_NO_THROW(make_fastcdc("fastcdc", {4096, 16384, 65536, 0, 64}));
    EXPECT_THROW(std::make_unique<GearHash>(0), Error);
    EXPECT_THROW(std::make_unique<GearHash>(4)->start(random_bytes(3, 1)), Error);
}

}  // namespace
}  // namespace idcodec::cdc
