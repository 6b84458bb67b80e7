#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/chunking/buzhash.hpp"
#include "core/chunking/rabin.hpp"
#include "core/common/error.hpp"

#include "unit/chunking/chunking_support.hpp"

namespace idcodec::cdc {
namespace {

using namespace test;

// Deterministic test data: xorshift64* bytes, optionally with long runs so max_size cuts happen too.
Bytes pseudo_random(std::size_t size, std::uint64_t state, bool with_runs = false) {
    Bytes data(size);
    for (std::size_t i = 0; i < size; ++i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        data[i] = static_cast<std::uint8_t>((state * 0x2545F4914F6CDD1D) >> 56);
    }
    if (with_runs)
        for (std::size_t i = size / 3; i < size / 3 + size / 4 && i < size; ++i) data[i] = 0x55;
    return data;
}

// '# buzhash seed=S offset=O window=W -> V' or '# buzhash seed=S bytes=TEXT -> V'.
struct BuzLine {
    std::uint64_t seed = 0;
    std::optional<std::size_t> offset, window;
    std::string bytes;
    std::uint32_t value = 0;
};

const std::vector<BuzLine>& buzhash_lines() {
    static const std::vector<BuzLine> parsed = [] {
        std::vector<BuzLine> lines;
        std::ifstream file(vectors_dir() + "/chunking.txt");
        if (!file) throw std::runtime_error("cannot open chunking.txt");
        for (std::string line; std::getline(file, line);) {
            if (line.rfind("# buzhash ", 0) != 0) continue;
            std::istringstream in(line);
            BuzLine b;
            std::string word;
            in >> word >> word;
            for (in >> word; word != "->"; in >> word) {
                const auto eq = word.find('=');
                const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
                if (key == "seed") b.seed = std::stoull(value);
                if (key == "offset") b.offset = std::stoull(value);
                if (key == "window") b.window = std::stoull(value);
                if (key == "bytes") b.bytes = value;
            }
            std::uint64_t value;
            in >> value;
            b.value = static_cast<std::uint32_t>(value);
            lines.push_back(b);
        }
        return lines;
    }();
    return parsed;
}

// Cut has no operator==; compare it as a pair.
std::pair<std::size_t, std::uint64_t> pair(Cut cut) { return {cut.length, cut.hash}; }

std::vector<Chunk> without_hashes(std::vector<Chunk> chunks) {
    for (Chunk& chunk : chunks) chunk.hash.reset();
    return chunks;
}

ChunkerSettings restic_settings(const VectorBlock& block) {
    // restic MinSize MaxSize average_bits
    return {block.params.at(0), std::size_t{1} << block.params.at(2), block.params.at(1), 0, 0};
}

ChunkerSettings borg_settings(const VectorBlock& block) {
    // borg seed chunk_min_exp chunk_max_exp hash_mask_bits window
    return {std::size_t{1} << block.params.at(1), std::size_t{1} << block.params.at(3),
            std::size_t{1} << block.params.at(2), block.params.at(0), block.params.at(4)};
}

template <typename F>
void expect_invalid(F&& f, const std::string& needle) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_parameter);
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

// Each of the settings refused by the chunker's constructor, with a message containing the text given with it.
template <class ChunkerType>
void expect_refused(std::initializer_list<std::pair<ChunkerSettings, const char*>> cases) {
    for (const auto& [settings, message] : cases) expect_invalid([&] { ChunkerType chunker(settings); }, message);
}

// On data other than the vectors' (random, and random with a long run): streaming (lookahead() bytes at a time)
// gives the whole-buffer chunks, and no chunk is longer than max_size, for each seed and each of the settings.
template <class ChunkerType>
void expect_streaming_matches_whole(std::initializer_list<std::uint64_t> seeds,
                                    std::initializer_list<ChunkerSettings> settings) {
    for (bool runs : {false, true})
        for (std::uint64_t seed : seeds) {
            const Bytes data = pseudo_random(150'000 + seed % 1000, seed + 3, runs);
            for (ChunkerSettings s : settings) {
                s.seed = seed;
                const ChunkerType chunker(s);
                const auto whole = chunk_all(chunker, data);
                EXPECT_EQ(chunk_streaming(chunker, data), whole);
                for (const Chunk& chunk : whole) EXPECT_LE(chunk.length, s.max_size);
            }
        }
}

// Every rolled hash equals the hash of that window computed afresh, and stays below `bound`.
template <class Hash>
void expect_rolling_equals_fresh(std::initializer_list<std::size_t> windows, std::initializer_list<std::uint64_t> seeds,
                                 std::uint64_t bound) {
    const Bytes data = pseudo_random(6000, 13);
    for (std::size_t window : windows)
        for (std::uint64_t seed : seeds) {
            Hash rolling(window, seed);
            Hash fresh(window, seed);
            std::uint64_t h = rolling.start(std::span(data).first(window));
            for (std::size_t pos = 1; pos + window <= data.size(); ++pos) {
                h = rolling.roll(data[pos - 1], data[pos + window - 1]);
                ASSERT_EQ(h, fresh.start(std::span(data).subspan(pos, window))) << window << " @" << pos;
                ASSERT_LT(h, bound);
            }
        }
}

// Every chunk ends at the first position its algorithm allows, checked against window hashes rolled byte by byte:
// `passes_before(p)` tells whether the cut test passes for a cut at p (the chunk ending just before p), and the
// positions a chunk could end at are [offset + min_size, offset + length]. Settings with few, many and very many
// cut points, on 1 MB of random data, so the scan's lanes hit in every lane and in every stretch width.
template <class TestAt>
void expect_first_cut_points(const Chunker& chunker, const ChunkerSettings& s, const Bytes& data, TestAt passes_before,
                             std::size_t tested_end) {
    std::size_t cuts = 0;
    for (const Chunk& chunk : chunk_all(chunker, data)) {
        const std::size_t end = chunk.offset + chunk.length;
        for (std::size_t p = chunk.offset + s.min_size; p < end && p < tested_end; ++p)
            ASSERT_FALSE(passes_before(p)) << "a cut was due at " << p << ", before " << end;
        if (chunk.length < s.max_size && end < tested_end) {
            ASSERT_TRUE(passes_before(end)) << "no cut due at " << end;
            ++cuts;
        }
    }
    EXPECT_GT(cuts, 0u);
}

// ---- Rabin polynomials -------------------------------------------------------------------------------------

TEST(RabinPolynomial, IrreducibilityAsRestic) {
    // restic's polynomials_test.go table.
    const std::vector<std::pair<rabin::Pol, bool>> cases = {
        {0x38f1e565e288df, false}, {0x3DA3358B4DC173, true},  {0x30a8295b9d5c91, false}, {0x255f4350b962cb, false},
        {0x267f776110a235, false}, {0x2f4dae10d41227, false}, {0x2482734cacca49, true},  {0x312daf4b284899, false},
        {0x29dfb6553d01d1, false}, {0x3548245eb26257, false}, {0x3199e7ef4211b3, false}, {0x362f39017dae8b, false},
        {0x200d57aa6fdacb, false}, {0x35e0a4efa1d275, false}, {0x2ced55b026577f, false}, {0x260b012010893d, false},
        {0x2df29cbcd59e9d, false}, {0x3f2ac7488bd429, false}, {0x3e5cb1711669fb, false}, {0x226d8de57a9959, false},
        {0x3c8de80aaf5835, false}, {0x2026a59efb219b, false}, {0x39dfa4d13fb231, false}, {0x3143d0464b3299, false},
    };
    for (const auto& [pol, irreducible] : cases) EXPECT_EQ(rabin::irreducible(pol), irreducible) << std::hex << pol;
    EXPECT_TRUE(rabin::irreducible(0b111));    // x^2 + x + 1
    EXPECT_FALSE(rabin::irreducible(0b101));   // (x + 1)^2
    EXPECT_FALSE(rabin::irreducible(0b1010));  // x (x^2 + 1)
    EXPECT_EQ(rabin::degree(rabin::default_polynomial), 53);
}

TEST(RabinPolynomial, SeedSelectsADeterministicIrreducibleDegree53Polynomial) {
    EXPECT_EQ(rabin::polynomial_for_seed(0), rabin::default_polynomial);
    std::set<rabin::Pol> seen{rabin::default_polynomial};
    for (std::uint64_t seed : {1ull, 2ull, 3ull, 42ull, 1234567ull, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000000ull}) {
        const rabin::Pol pol = rabin::polynomial_for_seed(seed);
        EXPECT_EQ(rabin::degree(pol), 53) << seed;
        EXPECT_TRUE(rabin::irreducible(pol)) << seed;
        EXPECT_EQ(rabin::polynomial_for_seed(seed), pol) << seed;
        EXPECT_TRUE(seen.insert(pol).second) << seed;
    }
    // The documented rule, pinned (checked against restic's DerivePolynomial fed the same SplitMix64 stream).
    EXPECT_EQ(rabin::polynomial_for_seed(1), rabin::Pol{0x3e2e2256feff0d});
    EXPECT_EQ(rabin::polynomial_for_seed(42), rabin::Pol{0x2431fa3c80db07});
    EXPECT_EQ(RabinChunker({512, 1024, 8192, 42, 0}).polynomial(), rabin::Pol{0x2431fa3c80db07});
}

// ---- restic chunker ----------------------------------------------------------------------------------------

TEST(RabinChunker, ResticVectors) {
    std::size_t blocks = 0, chunks = 0;
    for (const VectorBlock& block : chunking_blocks()) {
        if (block.algorithm != "restic") continue;
        SCOPED_TRACE("restic " + std::to_string(block.params[0]) + " " + std::to_string(block.params[1]) + " " +
                     std::to_string(block.params[2]));
        const auto chunker = std::make_unique<RabinChunker>(restic_settings(block));
        ASSERT_FALSE(block.chunks.empty());
        for (const Chunk& chunk : block.chunks) ASSERT_TRUE(chunk.hash.has_value());
        EXPECT_EQ(chunk_all(*chunker, sekien()), block.chunks);
        EXPECT_EQ(chunk_streaming(*chunker, sekien()), block.chunks);
        ++blocks;
        chunks += block.chunks.size();
    }
    EXPECT_EQ(blocks, 3u);
    EXPECT_EQ(chunks, 4u + 18u + 68u);
}

TEST(RabinChunker, CutHashIsTheFingerprintOfTheLast64Bytes) {
    const Bytes data = pseudo_random(300'000, 7);
    for (std::uint64_t seed : {0ull, 5ull}) {
        const auto chunker = std::make_unique<RabinChunker>(ChunkerSettings{256, 1024, 4096, seed, 64});
        RabinHash hash(64, seed);
        for (const Chunk& chunk : chunk_all(*chunker, data)) {
            ASSERT_GE(chunk.length, 256u);
            const auto last64 = std::span(data).subspan(chunk.offset + chunk.length - 64, 64);
            EXPECT_EQ(chunk.hash, hash.start(last64));
            if (chunk.length < 4096 && chunk.offset + chunk.length < data.size()) {
                EXPECT_EQ(*chunk.hash & 1023, 0u);
            }
        }
    }
}

TEST(RabinChunker, CutsAtTheFirstFingerprintThatPasses) {
    const Bytes data = pseudo_random(1 << 20, 21);
    for (const ChunkerSettings& s :
         {ChunkerSettings{64, 64, 65536, 0, 0}, ChunkerSettings{256, 1024, 8192, 3, 0},
          ChunkerSettings{1024, 16384, 1 << 20, 0, 0}, ChunkerSettings{4096, 65536, 1 << 20, 0, 0}}) {
        SCOPED_TRACE(std::to_string(s.min_size) + "/" + std::to_string(s.avg_size));
        // fingerprints[i]: the fingerprint of the 64 bytes ending at byte i.
        RabinHash hash(64, s.seed);
        std::vector<std::uint64_t> fingerprints(data.size());
        fingerprints[63] = hash.start(std::span(data).first(64));
        for (std::size_t i = 64; i < data.size(); ++i) fingerprints[i] = hash.roll(data[i - 64], data[i]);
        expect_first_cut_points(
            RabinChunker(s), s, data, [&](std::size_t p) { return (fingerprints[p - 1] & (s.avg_size - 1)) == 0; },
            data.size());
    }
}

TEST(RabinChunker, ShortLastChunksReportResticsDigest) {
    const auto chunker = std::make_unique<RabinChunker>(ChunkerSettings{512, 1024, 8192, 0, 0});
    const Bytes data = pseudo_random(1000, 3);
    // Nothing past the skipped min_size - 64 bytes: restic's digest is still its reset value, 1.
    EXPECT_EQ(chunker->cut(std::span(data).first(448), true).hash, 1u);
    EXPECT_EQ(chunker->cut(std::span(data).first(10), true).hash, 1u);
    // Hashed bytes behind restic's reset byte 1: the fingerprint of 0x01 followed by them.
    const Bytes tail = [&] {
        Bytes t{1};
        t.insert(t.end(), data.begin() + 448, data.begin() + 458);
        return t;
    }();
    RabinHash hash(tail.size(), 0);
    EXPECT_EQ(pair(chunker->cut(std::span(data).first(458), true)), pair({458, hash.start(tail)}));
    EXPECT_EQ(chunker->cut({}, true).length, 0u);
}

TEST(RabinChunker, StreamingMatchesWholeBufferOnOtherData) {
    expect_streaming_matches_whole<RabinChunker>(
        {0, 1, 99}, {{64, 256, 1024, 0, 0}, {512, 2048, 3000, 0, 64}, {4096, 4096, 4096, 0, 0}});
}

TEST(RabinHash, RollingEqualsFreshComputation) {
    expect_rolling_equals_fresh<RabinHash>({1, 2, 7, 8, 63, 64, 65, 1000}, {0, 77}, std::uint64_t{1} << 53);
    // A window of one byte is the byte itself (degree < 53 needs no reduction).
    EXPECT_EQ(RabinHash(1, 0).start(Bytes{0xAB}), 0xABu);
}

TEST(RabinChunker, ParameterErrors) {
    expect_refused<RabinChunker>({
        {{512, 1024, 8192, 0, 32}, "window_size"},
        {{63, 1024, 8192, 0, 0}, "min_size must be at least 64"},
        {{512, 1000, 8192, 0, 0}, "avg_size must be a power of two"},
        {{512, 0, 8192, 0, 0}, "avg_size must be a power of two"},
        {{2048, 1024, 8192, 0, 0}, "min_size <= avg_size <= max_size"},
        {{512, 16384, 8192, 0, 0}, "min_size <= avg_size <= max_size"},
        {{512, 1024, (std::size_t{1} << 30) + 1, 0, 0}, "max_size"},
    });
    expect_invalid([] { RabinHash(0, 0); }, "window_size must be between 1 and 1048576");
    expect_invalid([] { RabinHash((1u << 20) + 1, 0); }, "window_size");
    expect_invalid([] { RabinHash(4, 0).start(Bytes{1, 2, 3}); }, "exactly window_size bytes");
    const RabinChunker chunker({512, 1024, 8192, 0, 0});
    expect_invalid([&] { chunker.cut(Bytes(8191), false); }, "lookahead");
    EXPECT_NO_THROW(RabinChunker({64, 64, 64, 0, 64}));
}

// ---- borg buzhash -------------------------------------------------------------------------------------------

TEST(Buzhash, TableAndSeed) {
    const auto& base = buzhash::base_table();
    EXPECT_EQ(base[0], 0xe7f831ecu);
    EXPECT_EQ(base[1], 0xf4026465u);
    EXPECT_EQ(base[128], 0x813a06b4u);
    EXPECT_EQ(base[255], 0x71893f7bu);
    const auto table = buzhash::make_table(1234567);
    for (std::size_t i = 0; i < 256; ++i) EXPECT_EQ(table[i], base[i] ^ 1234567u);
    EXPECT_EQ(buzhash::seed32(0xFFFFFFFFu), 0xFFFFFFFFu);
    EXPECT_EQ(buzhash::seed32(static_cast<std::uint64_t>(std::int64_t{-5})), 0xFFFFFFFBu);
    EXPECT_EQ(buzhash::seed32(static_cast<std::uint64_t>(std::int64_t{-2147483648})), 0x80000000u);
}

TEST(Buzhash, VectorLines) {
    std::size_t checked = 0;
    for (const BuzLine& line : buzhash_lines()) {
        const auto table = buzhash::make_table(buzhash::seed32(line.seed));
        if (line.offset) {
            const auto window = std::span(sekien()).subspan(*line.offset, *line.window);
            EXPECT_EQ(buzhash::hash(window, table), line.value) << line.seed << " @" << *line.offset;
            BuzhashHash rolling(*line.window, line.seed);
            EXPECT_EQ(rolling.start(window), line.value);
        } else {
            const Bytes bytes(line.bytes.begin(), line.bytes.end());
            EXPECT_EQ(buzhash::hash(bytes, table), line.value) << line.bytes;
        }
        ++checked;
    }
    EXPECT_EQ(checked, 7u);
}

TEST(BuzhashChunker, BorgVectors) {
    std::size_t blocks = 0, chunks = 0;
    for (const VectorBlock& block : chunking_blocks()) {
        if (block.algorithm != "borg") continue;
        SCOPED_TRACE("borg " + std::to_string(block.params[0]) + " " + std::to_string(block.params[1]) + " " +
                     std::to_string(block.params[2]) + " " + std::to_string(block.params[3]) + " " +
                     std::to_string(block.params[4]));
        const ChunkerSettings settings = borg_settings(block);
        const auto chunker = std::make_unique<BuzhashChunker>(settings);
        const auto whole = chunk_all(*chunker, sekien());
        EXPECT_EQ(without_hashes(whole), block.chunks);
        EXPECT_EQ(chunk_streaming(*chunker, sekien()), whole);
        // Cut.hash: the hash of the window starting at a content cut, or of the window ending a forced cut.
        const auto table = buzhash::make_table(buzhash::seed32(settings.seed));
        const std::size_t window = settings.window_size;
        for (const Chunk& chunk : whole) {
            const std::size_t end = chunk.offset + chunk.length;
            if (chunk.length < settings.min_size + window + 1 && end == sekien().size()) {
                EXPECT_EQ(chunk.hash, 0u);
            } else if (chunk.length == settings.max_size || end == sekien().size()) {
                EXPECT_EQ(chunk.hash, buzhash::hash(std::span(sekien()).subspan(end - window, window), table));
            } else {
                EXPECT_EQ(chunk.hash, buzhash::hash(std::span(sekien()).subspan(end, window), table));
                EXPECT_EQ(*chunk.hash & (settings.avg_size - 1), 0u);
            }
        }
        ++blocks;
        chunks += block.chunks.size();
    }
    EXPECT_EQ(blocks, 4u);
    EXPECT_EQ(chunks, 7u + 19u + 18u + 29u);
}

TEST(BuzhashChunker, EndOfDataRules) {
    const ChunkerSettings s{1024, 1024, 8192, 0, 63};
    const auto chunker = std::make_unique<BuzhashChunker>(s);
    const Bytes data = pseudo_random(20'000, 9);
    // Fewer than min_size + window + 1 bytes left: one unhashed chunk.
    EXPECT_EQ(pair(chunker->cut(std::span(data).first(1087), true)), pair({1087, 0}));
    // From min_size + window + 1 bytes on, borg scans; no chunk is ever between end - window and end long.
    for (std::size_t size = 1088; size < 1400; ++size) {
        const Cut cut = chunker->cut(std::span(data).first(size), true);
        EXPECT_TRUE(cut.length == size || (cut.length >= 1024 && cut.length + 63 < size)) << size;
    }
    // Data with no cut point is cut at max_size.
    const Bytes zeros(20'000, 0);
    const auto zero_hash = buzhash::hash(std::span(zeros).first(63), buzhash::base_table());
    ASSERT_NE(zero_hash & 1023, 0u);
    EXPECT_EQ(pair(chunker->cut(zeros, false)), pair({8192, zero_hash}));
}

TEST(BuzhashChunker, CutsAtTheFirstWindowThatPasses) {
    const Bytes data = pseudo_random(1 << 20, 22);
    for (const ChunkerSettings& s :
         {ChunkerSettings{64, 64, 65536, 0, 48}, ChunkerSettings{1024, 4096, 65536, 1234567, 4095},
          ChunkerSettings{4096, 65536, 1 << 20, 0, 63}, ChunkerSettings{256, 1024, 4096, 0, 31}}) {
        SCOPED_TRACE(std::to_string(s.min_size) + "/" + std::to_string(s.avg_size) + " window " +
                     std::to_string(s.window_size));
        // sums[p]: the hash of the window starting at byte p, where a cut at p is tested.
        BuzhashHash hash(s.window_size, s.seed);
        std::vector<std::uint64_t> sums(data.size() - s.window_size + 1);
        sums[0] = hash.start(std::span(data).first(s.window_size));
        for (std::size_t p = 1; p < sums.size(); ++p) sums[p] = hash.roll(data[p - 1], data[p - 1 + s.window_size]);
        // borg tests a window only while it ends before the data does.
        expect_first_cut_points(
            BuzhashChunker(s), s, data, [&](std::size_t p) { return (sums[p] & (s.avg_size - 1)) == 0; },
            data.size() - s.window_size);
    }
}

TEST(BuzhashChunker, StreamingMatchesWholeBufferOnOtherData) {
    expect_streaming_matches_whole<BuzhashChunker>(
        {0, 1234567, 0xFFFFFFFF},
        {{1024, 4096, 16384, 0, 0}, {256, 1024, 4096, 0, 48}, {64, 64, 128, 0, 63}, {1, 1, 4, 0, 1}});
}

TEST(BuzhashHash, RollingEqualsFreshComputation) {
    expect_rolling_equals_fresh<BuzhashHash>({1, 2, 31, 32, 33, 64, 100, 4095}, {0, 1234567}, std::uint64_t{1} << 32);
}

TEST(BuzhashChunker, ParameterErrors) {
    expect_refused<BuzhashChunker>({
        {{1000, 4096, 65536, 0, 0}, "min_size must be a power of two"},
        {{1024, 4000, 65536, 0, 0}, "avg_size must be a power of two"},
        {{1024, 4096, 65535, 0, 0}, "max_size must be a power of two"},
        {{1024, 4096, 1u << 25, 0, 0}, "at most 16777216"},
        {{4096, 1024, 65536, 0, 0}, "min_size <= avg_size <= max_size"},
        {{1024, 1u << 17, 65536, 0, 0}, "min_size <= avg_size <= max_size"},
        {{1024, 4096, 4096, 0, 0}, "min_size + window_size + 1 <= max_size"},
        {{1024, 4096, 65536, 0, (1u << 20) + 1}, "window_size"},
        {{1024, 4096, 65536, 1ull << 32, 0}, "seed"},
        {{1024, 4096, 65536, static_cast<std::uint64_t>(-(1ll << 31) - 1), 0}, "between -2147483648 and 4294967295"},
    });
    expect_invalid([] { BuzhashHash(0, 0); }, "window_size must be between 1 and 1048576");
    expect_invalid([] { BuzhashHash(64, 1ull << 40); }, "seed");
    expect_invalid([] { BuzhashHash(4, 0).start(Bytes{1, 2, 3}); }, "exactly window_size bytes");
    const BuzhashChunker chunker({1024, 4096, 65536, 0, 0});
    expect_invalid([&] { chunker.cut(Bytes(65535), false); }, "lookahead");
    EXPECT_NO_THROW(BuzhashChunker({1024, 4096, 65536, static_cast<std::uint64_t>(-5), 0}));
}

}  // namespace
}  // namespace idcodec::cdc
