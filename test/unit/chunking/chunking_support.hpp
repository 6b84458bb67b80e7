// Shared helpers of the chunker unit tests (fastcdc_test.cpp, rabin_buzhash_test.cpp): the chunk record, the test
// image, random data, whole-buffer and streaming chunking, and the blocks of test/vectors/chunking.txt.
#pragma once

#include <charconv>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/chunking/chunker.hpp"

#include "unit/common/jsonl.hpp"

namespace idcodec::cdc::test {

// Inside idcodec::cdc this namespace hides idcodec::test, so `test::vectors_dir()` has to find it here too.
using idcodec::test::vectors_dir;

using Bytes = std::vector<std::uint8_t>;

// One chunk: where it starts, how long it is, and the hash the chunker reports (absent in vector lines without one).
struct Chunk {
    std::size_t offset;
    std::size_t length;
    std::optional<std::uint64_t> hash;
    bool operator==(const Chunk&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const Chunk& chunk) {
    out << "{" << chunk.offset << ", " << chunk.length;
    if (chunk.hash) out << ", " << *chunk.hash;
    return out << "}";
}

inline Bytes read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The image every chunking.txt block describes.
inline const Bytes& sekien() {
    static const Bytes data = read_file(vectors_dir() + "/../data/SekienAkashita.jpg");
    return data;
}

inline Bytes random_bytes(std::size_t size, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Bytes data(size);
    for (auto& byte : data) byte = static_cast<std::uint8_t>(rng() >> 56);
    return data;
}

// Whole buffer: each cut sees every byte that is left.
inline std::vector<Chunk> chunk_all(const Chunker& chunker, std::span<const std::uint8_t> data) {
    std::vector<Chunk> chunks;
    for (std::size_t offset = 0; offset < data.size();) {
        const std::size_t left = data.size() - offset;
        const Cut cut = chunker.cut(data.subspan(offset), true);
        if (cut.length == 0 || cut.length > left) throw std::runtime_error("bad chunk length");
        chunks.push_back({offset, cut.length, cut.hash});
        offset += cut.length;
    }
    return chunks;
}

// Streaming: each cut sees only lookahead() bytes, or the rest with `final`.
inline std::vector<Chunk> chunk_streaming(const Chunker& chunker, std::span<const std::uint8_t> data) {
    std::vector<Chunk> chunks;
    for (std::size_t offset = 0; offset < data.size();) {
        const std::size_t left = data.size() - offset;
        const bool final = left <= chunker.lookahead();
        const Cut cut = chunker.cut(data.subspan(offset, final ? left : chunker.lookahead()), final);
        if (cut.length == 0 || cut.length > left) throw std::runtime_error("bad chunk length");
        chunks.push_back({offset, cut.length, cut.hash});
        offset += cut.length;
    }
    return chunks;
}

// ---- chunking.txt ----

// One '# <algorithm> <numbers>' block and its 'offset length [hash]' lines.
struct VectorBlock {
    std::string algorithm;              // fastcdc-v2020, fastcdc-v2016, fastcdc-ronomon, restic, borg
    std::vector<std::uint64_t> params;  // as written after the name; what they mean depends on the algorithm
    std::vector<Chunk> chunks;
};

namespace detail {

inline std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string word; in >> word;) out.push_back(word);
    return out;
}

inline std::optional<std::uint64_t> number(const std::string& word) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return value;
}

}  // namespace detail

// Every block of a vector file of test/vectors/ (chunking.txt, fastcdc-levels.txt), in file order. A '#' line whose
// name is followed by numbers only starts a block; any other '#' line (the file's explanations, the '# buzhash ...'
// lines) ends the current one. Malformed block headers (numbers, then something else) and chunk lines throw.
inline std::vector<VectorBlock> read_blocks(const std::string& file) {
    {
        const std::string path = vectors_dir() + "/" + file;
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read " + path);
        std::vector<VectorBlock> blocks;
        bool inside = false;
        for (std::string line; std::getline(in, line);) {
            if (line.starts_with("#")) {
                const auto fields = detail::words(line.substr(1));
                inside = fields.size() >= 2 && detail::number(fields[1]).has_value();
                if (!inside) continue;
                VectorBlock block{fields[0], {}, {}};
                for (std::size_t i = 1; i < fields.size(); ++i) {
                    const auto value = detail::number(fields[i]);
                    if (!value) throw std::runtime_error("bad block header: " + line);
                    block.params.push_back(*value);
                }
                blocks.push_back(block);
            } else if (inside && !line.empty()) {
                const auto fields = detail::words(line);
                std::vector<std::uint64_t> values;
                for (const auto& field : fields)
                    if (const auto value = detail::number(field)) values.push_back(*value);
                if (values.size() != fields.size() || values.size() < 2 || values.size() > 3)
                    throw std::runtime_error("bad chunk line: " + line);
                Chunk chunk{values[0], values[1], std::nullopt};
                if (values.size() == 3) chunk.hash = values[2];
                blocks.back().chunks.push_back(chunk);
            }
        }
        return blocks;
    }
}

inline const std::vector<VectorBlock>& chunking_blocks() {
    static const std::vector<VectorBlock> parsed = read_blocks("chunking.txt");
    return parsed;
}

}  // namespace idcodec::cdc::test
