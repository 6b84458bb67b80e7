// Core FastCDC throughput over 64 MiB of pseudo-random bytes (target: twice fastcdc-rs's v2020 on the same machine,
// about 5 GB/s on a Zen 4 core); `make bench` builds and runs it.
//
// bytes_per_second counts every input byte, skipped ones (below min_size) included, as fastcdc-rs's benchmarks do.
// "ReferenceLoop" is the reference's two-bytes-per-step v2020 loop written plainly (test/unit/fastcdc_reference.hpp,
// also the unit tests' oracle), for comparison.
#include <benchmark/benchmark.h>
#include <cstdint>
#include <span>
#include <vector>

#include "core/chunking/fastcdc.hpp"

#include "unit/chunking/fastcdc_reference.hpp"

namespace {

using namespace idcodec::cdc;

const std::vector<std::uint8_t>& input() {
    static const std::vector<std::uint8_t> data = [] {
        std::vector<std::uint8_t> bytes(std::size_t{64} << 20);
        std::uint64_t state = 0x9E3779B97F4A7C15;  // SplitMix64
        for (std::size_t i = 0; i < bytes.size(); i += 8) {
            std::uint64_t z = (state += 0x9E3779B97F4A7C15);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            z ^= z >> 31;
            for (std::size_t j = 0; j < 8; ++j) bytes[i + j] = static_cast<std::uint8_t>(z >> (8 * j));
        }
        return bytes;
    }();
    return data;
}

void run(benchmark::State& state, const Chunker& chunker) {
    const std::span<const std::uint8_t> data(input());
    std::size_t chunks = 0;
    for (auto _ : state) {
        chunks = 0;
        std::uint64_t hashes = 0;
        for (std::size_t offset = 0; offset < data.size(); ++chunks) {
            const Cut cut = chunker.cut(data.subspan(offset), true);
            offset += cut.length;
            hashes ^= cut.hash;
        }
        benchmark::DoNotOptimize(hashes);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
    state.counters["chunks"] = static_cast<double>(chunks);
}

void BM_Chunker(benchmark::State& state, const char* algorithm) {
    const ChunkerSettings settings{static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)),
                                   static_cast<std::size_t>(state.range(2)), 0, 0};
    run(state, *make_fastcdc(algorithm, settings));
}

void BM_ReferenceLoop(benchmark::State& state) {
    const ChunkerSettings settings{static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)),
                                   static_cast<std::size_t>(state.range(2)), 0, 0};
    run(state, reference::FastCdcLoop(reference::FastCdcLoop::Version::v2020, settings));
}

// cdc_chunks' defaults first, then fastcdc-rs's usual benchmark sizes.
#define FASTCDC_SIZES Args({4096, 16384, 65536})->Args({16384, 65536, 262144})->Args({2048, 8192, 32768})

BENCHMARK_CAPTURE(BM_Chunker, fastcdc, "fastcdc")->FASTCDC_SIZES->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReferenceLoop)->FASTCDC_SIZES->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chunker, fastcdc2016, "fastcdc2016")->Args({4096, 16384, 65536})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Chunker, ronomon, "ronomon")->Args({4096, 16384, 65536})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
