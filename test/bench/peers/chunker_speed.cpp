// The idcodec side of test/bench/peers/run.sh: times a core chunker over a file held in memory, cutting chunk
// after chunk as cdc_chunks does:
//
//   chunker_speed FILE ALGORITHM MIN_SIZE AVG_SIZE MAX_SIZE ROUNDS
//
// prints "NANOSECONDS CHUNKS", the best of ROUNDS passes (seed 0, the algorithm's own window).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "core/chunking/cdc.hpp"

int main(int argc, char** argv) try {
    if (argc != 7) {
        std::fputs("usage: chunker_speed FILE ALGORITHM MIN_SIZE AVG_SIZE MAX_SIZE ROUNDS\n", stderr);
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    const auto chunker =
        idcodec::cdc::make_chunker(argv[2], {std::stoll(argv[3]), std::stoll(argv[4]), std::stoll(argv[5])});
    const int rounds = std::stoi(argv[6]);
    const std::span<const std::uint8_t> all(data);
    auto best = std::chrono::nanoseconds::max();
    std::size_t chunks = 0;
    for (int r = 0; r < rounds; ++r) {
        const auto start = std::chrono::steady_clock::now();
        std::size_t n = 0;
        for (std::size_t offset = 0; offset < all.size(); ++n) offset += chunker->cut(all.subspan(offset), true).length;
        const auto elapsed = std::chrono::steady_clock::now() - start;
        if (elapsed < best) best = elapsed, chunks = n;
    }
    std::printf("%lld %zu\n", static_cast<long long>(best.count()), chunks);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "chunker_speed: %s\n", e.what());
    return 2;
}
