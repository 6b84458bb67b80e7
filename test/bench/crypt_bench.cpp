// Core cost of one encrypted ID (idcrypt: a bigint as 14 base-62 characters under FF1 with AES-128) and of FF1 over
// 16 decimal digits, per call; `make bench` prints these beside the SQL rows, whose per-row cost they bound.
#include <benchmark/benchmark.h>
#include <cstdint>
#include <string>
#include <vector>

#include "core/crypt/alphabet_cipher.hpp"

namespace {

using idcodec::crypt::AlphabetCipher;

const std::vector<std::uint8_t> key{0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                    0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
constexpr std::string_view base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void BM_IdcryptEncode(benchmark::State& state) {
    const AlphabetCipher cipher(key, base62);
    std::uint64_t number = 1;
    std::string code;
    for (auto _ : state) {
        cipher.encode_id(number++, {}, 14, code);
        benchmark::DoNotOptimize(code.data());
    }
}

void BM_IdcryptDecode(benchmark::State& state) {
    const AlphabetCipher cipher(key, base62);
    std::vector<std::string> codes;
    for (std::uint64_t number = 1; number <= 1024; ++number) codes.push_back(cipher.encode_id(number, {}, 14));
    std::size_t k = 0;
    for (auto _ : state) benchmark::DoNotOptimize(cipher.decode_id(codes[k++ % codes.size()], {}, 14));
}

void BM_Ff1DecimalText(benchmark::State& state) {
    const AlphabetCipher cipher(key, "0123456789");
    const std::string card = "4111111111111111";
    for (auto _ : state) benchmark::DoNotOptimize(cipher.encrypt(card, {}));
}

}  // namespace

BENCHMARK(BM_IdcryptEncode);
BENCHMARK(BM_IdcryptDecode);
BENCHMARK(BM_Ff1DecimalText);
