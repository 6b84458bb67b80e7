#include <algorithm>
#include <cmath>
#include <string>

#include "core/chunking/fastcdc.hpp"
#include "core/chunking/lane_scan.hpp"
#include "core/common/error.hpp"

namespace idcodec::cdc {

namespace {

// fastcdc-rs's GEAR table. Its GEAR_LS (used by v2020) is every entry shifted left by one bit, derived below.
// clang-format off
constexpr std::array<std::uint64_t, 256> gear = {
    0x3b5d3c7d207e37dc, 0x784d68ba91123086, 0xcd52880f882e7298, 0xeacf8e4e19fdcca7,
    0xc31f385dfbd1632b, 0x1d5f27001e25abe6, 0x83130bde3c9ad991, 0xc4b225676e9b7649,
    0xaa329b29e08eb499, 0xb67fcbd21e577d58, 0x0027baaada2acf6b, 0xe3ef2d5ac73c2226,
    0x0890f24d6ed312b7, 0xa809e036851d7c7e, 0xf0a6fe5e0013d81b, 0x1d026304452cec14,
    0x03864632648e248f, 0xcdaacf3dcd92b9b4, 0xf5e012e63c187856, 0x8862f9d3821c00b6,
    0xa82f7338750f6f8a, 0x1e583dc6c1cb0b6f, 0x7a3145b69743a7f1, 0xabb20fee404807eb,
    0xb14b3cfe07b83a5d, 0xb9dc27898adb9a0f, 0x3703f5e91baa62be, 0xcf0bb866815f7d98,
    0x3d9867c41ea9dcd3, 0x1be1fa65442bf22c, 0x14300da4c55631d9, 0xe698e9cbc6545c99,
    0x4763107ec64e92a5, 0xc65821fc65696a24, 0x76196c064822f0b7, 0x485be841f3525e01,
    0xf652bc9c85974ff5, 0xcad8352face9e3e9, 0x2a6ed1dceb35e98e, 0xc6f483badc11680f,
    0x3cfd8c17e9cf12f1, 0x89b83c5e2ea56471, 0xae665cfd24e392a9, 0xec33c4e504cb8915,
    0x3fb9b15fc9fe7451, 0xd7fd1fd1945f2195, 0x31ade0853443efd8, 0x255efc9863e1e2d2,
    0x10eab6008d5642cf, 0x46f04863257ac804, 0xa52dc42a789a27d3, 0xdaaadf9ce77af565,
    0x6b479cd53d87febb, 0x6309e2d3f93db72f, 0xc5738ffbaa1ff9d6, 0x6bd57f3f25af7968,
    0x67605486d90d0a4a, 0xe14d0b9663bfbdae, 0xb7bbd8d816eb0414, 0xdef8a4f16b35a116,
    0xe7932d85aaaffed6, 0x08161cbae90cfd48, 0x855507beb294f08b, 0x91234ea6ffd399b2,
    0xad70cf4b2435f302, 0xd289a97565bc2d27, 0x8e558437ffca99de, 0x96d2704b7115c040,
    0x0889bbcdfc660e41, 0x5e0d4e67dc92128d, 0x72a9f8917063ed97, 0x438b69d409e016e3,
    0xdf4fed8a5d8a4397, 0x00f41dcf41d403f7, 0x4814eb038e52603f, 0x9dafbacc58e2d651,
    0xfe2f458e4be170af, 0x4457ec414df6a940, 0x06e62f1451123314, 0xbd1014d173ba92cc,
    0xdef318e25ed57760, 0x9fea0de9dfca8525, 0x459de1e76c20624b, 0xaeec189617e2d666,
    0x126a2c06ab5a83cb, 0xb1321532360f6132, 0x65421503dbb40123, 0x2d67c287ea089ab3,
    0x6c93bff5a56bd6b6, 0x4ffb2036cab6d98d, 0xce7b785b1be7ad4f, 0xedb42ef6189fd163,
    0xdc905288703988f6, 0x365f9c1d2c691884, 0xc640583680d99bfe, 0x3cd4624c07593ec6,
    0x7f1ea8d85d7c5805, 0x014842d480b57149, 0x0b649bcb5a828688, 0xbcd5708ed79b18f0,
    0xe987c862fbd2f2f0, 0x982731671f0cd82c, 0xbaf13e8b16d8c063, 0x8ea3109cbd951bba,
    0xd141045bfb385cad, 0x2acbc1a0af1f7d30, 0xe6444d89df03bfdf, 0xa18cc771b8188ff9,
    0x9834429db01c39bb, 0x214add07fe086a1f, 0x8f07c19b1f6b3ff9, 0x56a297b1bf4ffe55,
    0x94d558e493c54fc7, 0x40bfc24c764552cb, 0x931a706f8a8520cb, 0x32229d322935bd52,
    0x2560d0f5dc4fefaf, 0x9dbcc48355969bb6, 0x0fd81c3985c0b56a, 0xe03817e1560f2bda,
    0xc1bb4f81d892b2d5, 0xb0c4864f4e28d2d7, 0x3ecc49f9d9d6c263, 0x51307e99b52ba65e,
    0x8af2b688da84a752, 0xf5d72523b91b20b6, 0x6d95ff1ff4634806, 0x562f21555458339a,
    0xc0ce47f889336346, 0x487823e5089b40d8, 0xe4727c7ebc6d9592, 0x5a8f7277e94970ba,
    0xfca2f406b1c8bb50, 0x5b1f8a95f1791070, 0xd304af9fc9028605, 0x5440ab7fc930e748,
    0x312d25fbca2ab5a1, 0x10f4a4b234a4d575, 0x90301d55047e7473, 0x3b6372886c61591e,
    0x293402b77c444e06, 0x451f34a4d3e97dd7, 0x3158d814d81bc57b, 0x034942425b9bda69,
    0xe2032ff9e532d9bb, 0x62ae066b8b2179e5, 0x9545e10c2f8d71d8, 0x7ff7483eb2d23fc0,
    0x00945fcebdc98d86, 0x8764bbbe99b26ca2, 0x1b1ec62284c0bfc3, 0x58e0fcc4f0aa362b,
    0x5f4abefa878d458d, 0xfd74ac2f9607c519, 0xa4e3fb37df8cbfa9, 0xbf697e43cac574e5,
    0x86f14a3f68f4cd53, 0x24a23d076f1ce522, 0xe725cd8048868cc8, 0xbf3c729eb2464362,
    0xd8f6cd57b3cc1ed8, 0x6329e52425541577, 0x62aa688ad5ae1ac0, 0x0a242566269bf845,
    0x168b1a4753aca74b, 0xf789afefff2e7e3c, 0x6c3362093b6fccdb, 0x4ce8f50bd28c09b2,
    0x006a2db95ae8aa93, 0x975b0d623c3d1a8c, 0x18605d3935338c5b, 0x5bb6f6136cad3c71,
    0x0f53a20701f8d8a6, 0xab8c5ad2e7e93c67, 0x40b5ac5127acaa29, 0x8c7bf63c2075895f,
    0x78bd9f7e014a805c, 0xb2c9e9f4f9c8c032, 0xefd6049827eb91f3, 0x2be459f482c16fbd,
    0xd92ce0c5745aaa8c, 0x0aaa8fb298d965b9, 0x2b37f92c6c803b15, 0x8c54a5e94e0f0e78,
    0x95f9b6e90c0a3032, 0xe7939faa436c7874, 0xd16bfe8f6a8a40c9, 0x44982b86263fd2fa,
    0xe285fb39f984e583, 0x779a8df72d7619d3, 0xf2d79a8de8d5dd1e, 0xd1037354d66684e2,
    0x004c82a4e668a8e5, 0x31d40a7668b044e6, 0xd70578538bd02c11, 0xdb45431078c5f482,
    0x977121bb7f6a51ad, 0x73d5ccbd34eff8dd, 0xe437a07d356e17cd, 0x47b2782043c95627,
    0x9fb251413e41d49a, 0xccd70b60652513d3, 0x1c95b31e8a1b49b2, 0xcae73dfd1bcb4c1b,
    0x34d98331b1f5b70f, 0x784e39f22338d92f, 0x18613d4a064df420, 0xf1d8dae25f0bcebe,
    0x33f77c15ae855efc, 0x3c88b3b912eb109c, 0x956a2ec96bafeea5, 0x1aa005b5e0ad0e87,
    0x5500d70527c4bb8e, 0xe36c57196421cc44, 0x13c4d286cc36ee39, 0x5654a23d818b2a81,
    0x77b1dc13d161abdc, 0x734f44de5f8d5eb5, 0x60717e174a6c89a2, 0xd47d9649266a211e,
    0x5b13a4322bb69e90, 0xf7669609f8b5fc3c, 0x21e6ac55bedcdac9, 0x9b56b62b61166dea,
    0xf48f66b939797e9c, 0x35f332f9c0e6ae9a, 0xcc733f6a9a878db0, 0x3da161e41cc108c2,
    0xb7d74ae535914d51, 0x4d493b0b11d36469, 0xce264d1dfba9741a, 0xa9d1f2dc7436dc06,
    0x70738016604c2a27, 0x231d36e96e93f3d5, 0x7666881197838d19, 0x4a2a83090aaad40c,
    0xf1e761591668b35d, 0x7363236497f730a7, 0x301080e37379dd4d, 0x502dea2971827042,
    0xc2c5eb858f32625f, 0x786afb9edfafbdff, 0xdaee0d868490b2a4, 0x617366b3268609f6,
    0xae0e35a0fe46173e, 0xd1a07de93e824f11, 0x079b8b115ea4cca8, 0x93a99274558faebb,
    0xfb1e6e22e08a03b3, 0xea635fdba3698dd0, 0xcf53659328503a5c, 0xcde3b31e6fd5d780,
    0x8e3e4221d3614413, 0xef14d0d86bf1a22c, 0xe1d830d3f16c5ddb, 0xaabd2b2a451504e1,
};
// clang-format on

constexpr std::array<std::uint64_t, 256> gear_shifted = [] {
    std::array<std::uint64_t, 256> table{};
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = gear[i] << 1;
    return table;
}();
// Spot checks against fastcdc-rs's own GEAR_LS listing.
static_assert(gear_shifted[0] == 0x76ba78fa40fc6fb8 && gear_shifted[128] == 0x819c8ff11266c68c &&
              gear_shifted[255] == 0x557a56548a2a09c2);

// Masks by rounded log2 of the wanted chunk size (0..5 unused), from the destor and restic-FastCDC sources.
constexpr std::array<std::uint64_t, 26> masks = {
    0,
    0,
    0,
    0,
    0,
    0x0000000001804110,
    0x0000000001803110,  // 64 B
    0x0000000018035100,
    0x0000001800035300,  // 256 B
    0x0000019000353000,
    0x0000590003530000,  // 1 KiB
    0x0000d90003530000,
    0x0000d90103530000,  // 4 KiB
    0x0000d90303530000,
    0x0000d90313530000,  // 16 KiB
    0x0000d90f03530000,
    0x0000d90303537000,  // 64 KiB
    0x0000d90703537000,
    0x0000d90707537000,  // 256 KiB
    0x0000d91707537000,
    0x0000d91747537000,  // 1 MiB
    0x0000d91767537000,
    0x0000d93767537000,  // 4 MiB
    0x0000d93777537000,
    0x0000d93777577000,  // 16 MiB
    0x0000db3777577000,
};
// No mask reaches bit 63, so testing (h << 1) against (mask << 1), as v2020 does at even offsets, is the same as
// testing h against mask; the scan below relies on that.
static_assert(std::all_of(masks.begin(), masks.end(), [](std::uint64_t m) { return m >> 63 == 0; }));

// ronomon's table: a cipher's keystream over zeros, with the high bit of each word cleared (31-bit values).
// clang-format off
constexpr std::array<std::uint32_t, 256> ronomon_table = {
    0x5c95c078, 0x22408989, 0x2d48a214, 0x12842087, 0x530f8afb, 0x474536b9, 0x2963b4f1, 0x44cb738b,
    0x4ea7403d, 0x4d606b6e, 0x074ec5d3, 0x3af39d18, 0x726003ca, 0x37a62a74, 0x51a2f58e, 0x7506358e,
    0x5d4ab128, 0x4d4ae17b, 0x41e85924, 0x470c36f7, 0x4741cbe1, 0x01bb7f30, 0x617c1de3, 0x2b0c3a1f,
    0x50c48f73, 0x21a82d37, 0x6095ace0, 0x419167a0, 0x3caf49b0, 0x40cea62d, 0x66bc1c66, 0x545e1dad,
    0x2bfa77cd, 0x6e85da24, 0x5fb0bdc5, 0x652cfc29, 0x3a0ae1ab, 0x2837e0f3, 0x6387b70e, 0x13176012,
    0x4362c2bb, 0x66d8f4b1, 0x37fce834, 0x2c9cd386, 0x21144296, 0x627268a8, 0x650df537, 0x2805d579,
    0x3b21ebbd, 0x7357ed34, 0x3f58b583, 0x7150ddca, 0x7362225e, 0x620a6070, 0x2c5ef529, 0x7b522466,
    0x768b78c0, 0x4b54e51e, 0x75fa07e5, 0x06a35fc6, 0x30b71024, 0x1c8626e1, 0x296ad578, 0x28d7be2e,
    0x1490a05a, 0x7cee43bd, 0x698b56e3, 0x09dc0126, 0x4ed6df6e, 0x02c1bfc7, 0x2a59ad53, 0x29c0e434,
    0x7d6c5278, 0x507940a7, 0x5ef6ba93, 0x68b6af1e, 0x46537276, 0x611bc766, 0x155c587d, 0x301ba847,
    0x2cc9dda7, 0x0a438e2c, 0x0a69d514, 0x744c72d3, 0x4f326b9b, 0x7ef34286, 0x4a0ef8a7, 0x6ae06ebe,
    0x669c5372, 0x12402dcb, 0x5feae99d, 0x76c7f4a7, 0x6abdb79c, 0x0dfaa038, 0x20e2282c, 0x730ed48b,
    0x069dac2f, 0x168ecf3e, 0x2610e61f, 0x2c512c8e, 0x15fb8c06, 0x5e62bc76, 0x69555135, 0x0adb864c,
    0x4268f914, 0x349ab3aa, 0x20edfdb2, 0x51727981, 0x37b4b3d8, 0x5dd17522, 0x6b2cbfe4, 0x5c47cf9f,
    0x30fa1ccd, 0x23dedb56, 0x13d1f50a, 0x64eddee7, 0x0820b0f7, 0x46e07308, 0x1e2d1dfd, 0x17b06c32,
    0x250036d8, 0x284dbf34, 0x68292ee0, 0x362ec87c, 0x087cb1eb, 0x76b46720, 0x104130db, 0x71966387,
    0x482dc43f, 0x2388ef25, 0x524144e1, 0x44bd834e, 0x448e7da3, 0x3fa6eaf9, 0x3cda215c, 0x3a500cf3,
    0x395cb432, 0x5195129f, 0x43945f87, 0x51862ca4, 0x56ea8ff1, 0x201034dc, 0x4d328ff5, 0x7d73a909,
    0x6234d379, 0x64cfbf9c, 0x36f6589a, 0x0a2ce98a, 0x5fe4d971, 0x03bc15c5, 0x44021d33, 0x16c1932b,
    0x37503614, 0x1acaf69d, 0x3f03b779, 0x49e61a03, 0x1f52d7ea, 0x1c6ddd5c, 0x062218ce, 0x07e7a11a,
    0x1905757a, 0x7ce00a53, 0x49f44f29, 0x4bcc70b5, 0x39feea55, 0x5242cee8, 0x3ce56b85, 0x00b81672,
    0x46beeccc, 0x3ca0ad56, 0x2396cee8, 0x78547f40, 0x6b08089b, 0x66a56751, 0x781e7e46, 0x1e2cf856,
    0x3bc13591, 0x494a4202, 0x520494d7, 0x2d87459a, 0x757555b6, 0x42284cc1, 0x1f478507, 0x75c95dff,
    0x35ff8dd7, 0x4e4757ed, 0x2e11f88c, 0x5e1b5048, 0x420e6699, 0x226b0695, 0x4d1679b4, 0x5a22646f,
    0x161d1131, 0x125c68d9, 0x1313e32e, 0x4aa85724, 0x21dc7ec1, 0x4ffa29fe, 0x72968382, 0x1ca8eef3,
    0x3f3b1c28, 0x39c2fb6c, 0x6d76493f, 0x7a22a62e, 0x789b1c2a, 0x16e0cb53, 0x7deceeeb, 0x0dc7e1c6,
    0x5c75bf3d, 0x52218333, 0x106de4d6, 0x7dc64422, 0x65590ff4, 0x2c02ec30, 0x64a9ac67, 0x59cab2e9,
    0x4a21d2f3, 0x0f616e57, 0x23b54ee8, 0x02730aaa, 0x2f3c634d, 0x7117fc6c, 0x01ac6f05, 0x5a9ed20c,
    0x158c4e2a, 0x42b699f0, 0x0c7c14b3, 0x02bd9641, 0x15ad56fc, 0x1c722f60, 0x7da1af91, 0x23e0dbcb,
    0x0e93e12b, 0x64b2791d, 0x440d2476, 0x588ea8dd, 0x4665a658, 0x7446c418, 0x1877a774, 0x5626407e,
    0x7f63bd46, 0x32d2dbd8, 0x3c790f4a, 0x772b7239, 0x6f8b2826, 0x677ff609, 0x0dc82c11, 0x23ffe354,
    0x2eac53a6, 0x16139e09, 0x0afd0dbc, 0x2a4d4237, 0x56a368c7, 0x234325e4, 0x2dce9187, 0x32e8ea7e,
};
// clang-format on

// The Gear state after hashing data[from, to) from 0.
std::uint64_t gear_over(const std::uint64_t* table, const std::uint8_t* data, std::size_t from,
                        std::size_t to) noexcept {
    std::uint64_t hash = 0;
    for (std::size_t i = from; i < to; ++i) hash = (hash << 1) + table[data[i]];
    return hash;
}

// The Gear hash as the lane scan steps it: its state depends only on the last 64 bytes (older ones have shifted
// out), so 63 bytes before a byte warm a lane up.
class GearLanes {
public:
    static constexpr std::size_t warmup = 63;

    GearLanes(const std::uint64_t* table, std::uint64_t mask) noexcept : table_(table), mask_(mask) {}

    std::uint64_t grow(std::uint64_t hash, const std::uint8_t* at) const noexcept { return step(hash, *at, at); }
    std::uint64_t step(std::uint64_t hash, std::uint8_t in, const std::uint8_t*) const noexcept {
        return (hash << 1) + table_[in];
    }
    bool hit(std::uint64_t hash) const noexcept { return (hash & mask_) == 0; }

private:
    const std::uint64_t* table_;
    std::uint64_t mask_;
};

// The first p in [lo, hi) where the Gear state has no bit of `mask` set, or hi if there is none. `hash` is the state
// before lo (0 where the scan starts), and after the call the state at p (after hi - 1 if none).
std::size_t find_cut(const std::uint64_t* table, const std::uint8_t* data, std::size_t lo, std::size_t hi,
                     std::uint64_t mask, std::uint64_t& hash) noexcept {
    return find_first_hit(GearLanes(table, mask), data, lo, hi, hash);
}

void check_settings(std::string_view name, const ChunkerSettings& settings, const SizeBounds& bounds) {
    const auto in_range = [&](const char* argument, std::size_t value, std::size_t lo, std::size_t hi) {
        if (value < lo || value > hi)
            throw Error(ErrorKind::invalid_parameter, std::string(name) + " " + argument + " must be between " +
                                                          std::to_string(lo) + " and " + std::to_string(hi) + " (got " +
                                                          std::to_string(value) + ")");
    };
    in_range("min_size", settings.min_size, bounds.min_lo, bounds.min_hi);
    in_range("avg_size", settings.avg_size, bounds.avg_lo, bounds.avg_hi);
    in_range("max_size", settings.max_size, bounds.max_lo, bounds.max_hi);
    if (settings.min_size > settings.avg_size)
        throw Error(ErrorKind::invalid_parameter, std::string(name) + " min_size must not exceed avg_size (got " +
                                                      std::to_string(settings.min_size) + " > " +
                                                      std::to_string(settings.avg_size) + ")");
    if (settings.avg_size > settings.max_size)
        throw Error(ErrorKind::invalid_parameter, std::string(name) + " avg_size must not exceed max_size (got " +
                                                      std::to_string(settings.avg_size) + " > " +
                                                      std::to_string(settings.max_size) + ")");
    if (settings.window_size != 0 && settings.window_size != 64)
        throw Error(ErrorKind::invalid_parameter, std::string(name) +
                                                      " window_size must be NULL or 64, its fixed Gear window (got " +
                                                      std::to_string(settings.window_size) + ")");
}

// The sizes and the masks of normalization level 1 (strict before avg_size, loose after) every FastCDC variant
// keeps, checked against the variant's bounds; Mask is as wide as its hash.
template <class Derived, class Mask>
class FastCdcChunker : public BoundedChunker<Derived> {
protected:
    FastCdcChunker(std::string_view name, const ChunkerSettings& settings, const SizeBounds& bounds)
        : BoundedChunker<Derived>(settings.max_size), min_(settings.min_size), avg_(settings.avg_size) {
        check_settings(name, settings, bounds);
    }

    std::size_t min_, avg_;
    Mask mask_s_ = 0, mask_l_ = 0;
};

// v2020 with any normalization level and seed (fastcdc-rs's with_level_and_seed): a seed XORs every Gear entry.
class FastCdc2020 final : public FastCdcChunker<FastCdc2020, std::uint64_t> {
public:
    explicit FastCdc2020(const ChunkerSettings& settings);
    Cut cut(std::span<const std::uint8_t> data, bool final) const override;

private:
    std::array<std::uint64_t, 256> gear_;
};

class FastCdc2016 final : public FastCdcChunker<FastCdc2016, std::uint64_t> {
public:
    explicit FastCdc2016(const ChunkerSettings& settings);
    Cut cut(std::span<const std::uint8_t> data, bool final) const override;
};

// Joran Greef's variant (31-bit table, right shifts, its own pivot); the reported hash is its u32 state.
class RonomonCdc final : public FastCdcChunker<RonomonCdc, std::uint32_t> {
public:
    explicit RonomonCdc(const ChunkerSettings& settings);
    Cut cut(std::span<const std::uint8_t> data, bool final) const override;
};

}  // namespace

std::span<const std::uint64_t, 256> gear_table() noexcept { return gear; }
std::span<const std::uint64_t, 26> fastcdc_masks() noexcept { return masks; }

unsigned rounded_log2(std::size_t value) noexcept {
    if (value == 0) return 0;  // Rust's `as u32` turns log2(0) = -inf into 0
    return static_cast<unsigned>(std::round(std::log2(static_cast<double>(value))));
}

// ---- v2020 ----

FastCdc2020::FastCdc2020(const ChunkerSettings& settings) : FastCdcChunker("fastcdc", settings, fastcdc_bounds) {
    if (settings.normalization < 0 || settings.normalization > max_normalization)
        throw Error(ErrorKind::invalid_parameter, "fastcdc normalization must be between 0 and " +
                                                      std::to_string(max_normalization) + " (got " +
                                                      std::to_string(settings.normalization) + ")");
    const unsigned bits = rounded_log2(avg_);
    mask_s_ = masks[bits + static_cast<unsigned>(settings.normalization)];
    mask_l_ = masks[bits - static_cast<unsigned>(settings.normalization)];
    for (std::size_t i = 0; i < gear_.size(); ++i) gear_[i] = gear[i] ^ settings.seed;
}

Cut FastCdc2020::cut(std::span<const std::uint8_t> data, bool) const {
    // With at least max_size bytes the rest of the data cannot matter, so `final` changes nothing.
    if (data.size() <= min_) return {data.size(), 0};
    const std::size_t remaining = std::min(data.size(), max_size_);
    const std::size_t center = std::min(avg_, remaining);
    // The reference hashes byte pairs (2i, 2i + 1) for i from min/2: the strict mask while i < center/2, the
    // loose one while i < remaining/2. So byte offsets [start, split) are strict, [split, end) loose.
    const std::size_t start = min_ / 2 * 2;
    const std::size_t split = std::max(start, center / 2 * 2);
    const std::size_t end = remaining / 2 * 2;
    std::uint64_t hash = 0;
    std::size_t p = find_cut(gear_.data(), data.data(), start, split, mask_s_, hash);
    if (p == split) p = find_cut(gear_.data(), data.data(), split, end, mask_l_, hash);
    // An even offset ends the reference's first half-step, whose state is the Gear hash shifted left once.
    if (p < end) return {p, p % 2 == 0 ? hash << 1 : hash};
    return {remaining, hash};
}

// ---- v2016 ----

FastCdc2016::FastCdc2016(const ChunkerSettings& settings) : FastCdcChunker("fastcdc2016", settings, fastcdc_bounds) {
    const unsigned bits = rounded_log2(avg_);
    mask_s_ = masks[bits + 1];
    mask_l_ = masks[bits - 1];
}

Cut FastCdc2016::cut(std::span<const std::uint8_t> data, bool) const {
    if (data.size() <= min_) return {data.size(), 0};
    const std::size_t remaining = std::min(data.size(), max_size_);
    const std::size_t center = std::min(avg_, remaining);
    const std::size_t split = std::max(min_, center);
    std::uint64_t hash = 0;
    std::size_t p = find_cut(gear.data(), data.data(), min_, split, mask_s_, hash);
    if (p == split) p = find_cut(gear.data(), data.data(), split, remaining, mask_l_, hash);
    return {p, hash};
}

// ---- ronomon ----

RonomonCdc::RonomonCdc(const ChunkerSettings& settings) : FastCdcChunker("ronomon", settings, ronomon_bounds) {
    const unsigned bits = rounded_log2(avg_);
    mask_s_ = (std::uint32_t{1} << (bits + 1)) - 1;
    mask_l_ = (std::uint32_t{1} << (bits - 1)) - 1;
}

Cut RonomonCdc::cut(std::span<const std::uint8_t> data, bool) const {
    if (data.size() <= min_) return {data.size(), 0};
    const std::size_t size = std::min(data.size(), max_size_);
    // ronomon's pivot, counted from the chunk start: avg - min(1.5 min rounded up, avg). Often below min_size, in
    // which case only the loose mask is used.
    const std::size_t split = std::min(size, avg_ - std::min(min_ + (min_ + 1) / 2, avg_));
    std::uint32_t hash = 0;  // (hash >> 1) + table entry stays below 2^32: the entries are below 2^31
    std::size_t i = min_;
    for (; i < split; ++i) {
        hash = (hash >> 1) + ronomon_table[data[i]];
        if ((hash & mask_s_) == 0) return {i + 1, hash};
    }
    for (; i < size; ++i) {
        hash = (hash >> 1) + ronomon_table[data[i]];
        if ((hash & mask_l_) == 0) return {i + 1, hash};
    }
    return {size, hash};
}

// ---- Gear rolling hash ----

std::uint64_t GearSteps::start(std::span<const std::uint8_t> window) const noexcept {
    return gear_over(gear.data(), window.data(), 0, window.size());
}

std::uint64_t GearSteps::roll(std::uint64_t hash, std::uint8_t out, std::uint8_t in) const noexcept {
    hash = (hash << 1) + gear[in];
    if (out_shift < 64) hash -= gear[out] << out_shift;  // the leaving byte would sit at bit out_shift
    return hash;
}

std::unique_ptr<Chunker> make_fastcdc(std::string_view algorithm, const ChunkerSettings& settings) {
    if (algorithm == "fastcdc") return std::make_unique<FastCdc2020>(settings);
    if (algorithm == "fastcdc2016") return std::make_unique<FastCdc2016>(settings);
    if (algorithm == "ronomon") return std::make_unique<RonomonCdc>(settings);
    throw Error(ErrorKind::invalid_parameter,
                "FastCDC algorithm must be fastcdc, fastcdc2016 or ronomon (got \"" + std::string(algorithm) + "\")");
}

}  // namespace idcodec::cdc
