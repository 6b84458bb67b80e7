// Core cost of the TypeID and ULID conversions of a UUID, per call; `make bench` prints these beside the SQL rows.
#include <benchmark/benchmark.h>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ids/time_ordered.hpp"

namespace {

using namespace idcodec::time_ordered;

std::vector<Uuid> random_uuids() {
    std::vector<Uuid> uuids(1024);
    std::uint64_t state = 0x9E3779B97F4A7C15;
    for (Uuid& uuid : uuids)
        for (std::uint8_t& byte : uuid)
            byte = static_cast<std::uint8_t>((state = state * 6364136223846793005u + 1) >> 56);
    return uuids;
}

void BM_TypeIdEncode(benchmark::State& state) {
    const std::vector<Uuid> uuids = random_uuids();
    std::string text(type_id_length("user"), ' ');
    std::size_t k = 0;
    for (auto _ : state) {
        write_type_id("user", uuids[k++ % uuids.size()], text);
        benchmark::DoNotOptimize(text.data());
    }
}

void BM_TypeIdDecode(benchmark::State& state) {
    std::vector<std::string> texts;
    for (const Uuid& uuid : random_uuids()) {
        std::string text(type_id_length("user"), ' ');
        write_type_id("user", uuid, text);
        texts.push_back(text);
    }
    std::size_t k = 0;
    for (auto _ : state) benchmark::DoNotOptimize(parse_type_id(texts[k++ % texts.size()]));
}

void BM_UlidDecode(benchmark::State& state) {
    std::vector<std::string> texts;
    for (const Uuid& uuid : random_uuids()) {
        std::string text(idcodec::crockford::text_length, ' ');
        ulid(uuid, std::span<char, idcodec::crockford::text_length>(text.data(), text.size()));
        texts.push_back(text);
    }
    std::size_t k = 0;
    for (auto _ : state) benchmark::DoNotOptimize(parse_ulid(texts[k++ % texts.size()]));
}

}  // namespace

BENCHMARK(BM_TypeIdEncode);
BENCHMARK(BM_TypeIdDecode);
BENCHMARK(BM_UlidDecode);
