#include <algorithm>
#include <string>

#include "core/chunking/buzhash.hpp"
#include "core/common/error.hpp"

namespace idcodec::cdc {

namespace buzhash {

namespace {

// borg 1.2's table_base (src/borg/_chunker.c).
// clang-format off
constexpr Table table_base = {
    0xe7f831ec, 0xf4026465, 0xafb50cae, 0x6d553c7a, 0xd639efe3, 0x19a7b895, 0x9aba5b21, 0x5417d6d4,
    0x35fd2b84, 0xd1f6a159, 0x3f8e323f, 0xb419551c, 0xf444cebf, 0x21dc3b80, 0xde8d1e36, 0x84a32436,
    0xbeb35a9d, 0xa36f24aa, 0xa4e60186, 0x98d18ffe, 0x3f042f9e, 0xdb228bcd, 0x096474b7, 0x5c20c2f7,
    0xf9eec872, 0xe8625275, 0xb9d38f80, 0xd48eb716, 0x22a950b4, 0x3cbaaeaa, 0xc37cddd3, 0x8fea6f6a,
    0x1d55d526, 0x7fd6d3b3, 0xdaa072ee, 0x4345ac40, 0xa077c642, 0x8f2bd45b, 0x28509110, 0x55557613,
    0xffc17311, 0xd961ffef, 0xe532c287, 0xaab95937, 0x46d38365, 0xb065c703, 0xf2d91d0f, 0x92cd4bb0,
    0x4007c712, 0xf35509dd, 0x505b2f69, 0x557ead81, 0x310f4563, 0xbddc5be8, 0x9760f38c, 0x701e0205,
    0x00157244, 0x14912826, 0xdc4ca32b, 0x67b196de, 0x5db292e8, 0x8c1b406b, 0x01f34075, 0xfa2520f7,
    0x73bc37ab, 0x1e18bc30, 0xfe2c6cb3, 0x20c522d0, 0x5639e3db, 0x942bda35, 0x899af9d1, 0xced44035,
    0x98cc025b, 0x255f5771, 0x70fefa24, 0xe928fa4d, 0x2c030405, 0xb9325590, 0x20cb63bd, 0xa166305d,
    0x80e52c0a, 0xa8fafe2f, 0x1ad13f7d, 0xcfaf3685, 0x6c83a199, 0x7d26718a, 0xde5dfcd9, 0x79cf7355,
    0x8979d7fb, 0xebf8c55e, 0xebe408e4, 0xcd2affba, 0xe483be6e, 0xe239d6de, 0x5dc1e9e0, 0x0473931f,
    0x851b097c, 0xac5db249, 0x09c0f9f2, 0xd8d2f134, 0xe6f38e41, 0xb1c71bf1, 0x52b6e4db, 0x07224424,
    0x6cf73e85, 0x4f25d89c, 0x782a7d74, 0x10a68dcd, 0x3a868189, 0xd570d2dc, 0x69630745, 0x9542ed86,
    0x331cd6b2, 0xa84b5b28, 0x07879c9d, 0x38372f64, 0x7185db11, 0x25ba7c83, 0x01061523, 0xe6792f9f,
    0xe5df07d1, 0x4321b47f, 0x7d2469d8, 0x1a3a4f90, 0x48be29a3, 0x669071af, 0x8ec8dd31, 0x0810bfbf,
    0x813a06b4, 0x68538345, 0x65865ddc, 0x43a71b8e, 0x78619a56, 0x5a34451d, 0x5bdaa3ed, 0x71edc7e9,
    0x17ac9a20, 0x78d10bfa, 0x6c1e7f35, 0xd51839d9, 0x240cbc51, 0x33513cc1, 0xd2b4f795, 0xccaa8186,
    0x0babe682, 0xa33cf164, 0x18c643ea, 0xc1ca105f, 0x9959147a, 0x6d3d94de, 0x0b654fbe, 0xed902ca0,
    0x7d835cb5, 0x99ba1509, 0x6445c922, 0x495e76c2, 0xf07194bc, 0xa1631d7e, 0x677076a5, 0x89fffe35,
    0x1a49bcf3, 0x8e6c948a, 0x0144c917, 0x8d93aea1, 0x16f87ddf, 0xc8f25d49, 0x1fb11297, 0x27e750cd,
    0x2f422da1, 0xdee89a77, 0x1534c643, 0x457b7b8b, 0xaf172f7a, 0x6b9b09d6, 0x33573f7f, 0xf14e15c4,
    0x526467d5, 0xaf488241, 0x87c3ee0d, 0x33be490c, 0x95aa6e52, 0x43ec242e, 0xd77de99b, 0xd018334f,
    0x5b78d407, 0x498eb66b, 0xb1279fa8, 0xb38b0ea6, 0x90718376, 0xe325dee2, 0x8e2f2cba, 0xcaa5bdec,
    0x9d652c56, 0xad68f5cb, 0xa77591af, 0x88e37ee8, 0xf8faa221, 0xfcbbbe47, 0x4f407786, 0xaf393889,
    0xf444a1d9, 0x15ae1a2f, 0x40aa7097, 0x6f9486ac, 0x29d232a3, 0xe47609e9, 0xe8b631ff, 0xba8565f4,
    0x11288749, 0x46c9a838, 0xeb1b7cd8, 0xf516bbb1, 0xfb74fda0, 0x010996e6, 0x4c994653, 0x1d889512,
    0x53dcd9a3, 0xdd074697, 0x1e78e17c, 0x637c98bf, 0x930bb219, 0xcf7f75b0, 0xcb9355fb, 0x9e623009,
    0xe466d82c, 0x28f968d3, 0xfeb385d9, 0x238e026c, 0xb8ed0560, 0x0c6a027a, 0x3d6fec4b, 0xbb4b2ec2,
    0xe715031c, 0xeded011d, 0xcdc4d3b9, 0xc456fc96, 0xdd0eea20, 0xb3df8ec9, 0x12351993, 0xd9cbb01c,
    0x603147a2, 0xcf37d17d, 0xf7fcd9dc, 0xd8556fa3, 0x104c8131, 0x13152774, 0xb4715811, 0x6a72c2c9,
    0xc5ae37bb, 0xa76ce12a, 0x8150d8f3, 0x2ec29218, 0xa35f0984, 0x48c0647e, 0x0b5ff98c, 0x71893f7b,
};
// clang-format on

}  // namespace

const Table& base_table() noexcept { return table_base; }

std::uint32_t seed32(std::uint64_t seed) {
    const auto signed_seed = static_cast<std::int64_t>(seed);
    if (signed_seed < -(std::int64_t{1} << 31) || signed_seed > std::int64_t{0xFFFFFFFF})
        throw Error(ErrorKind::invalid_parameter,
                    "buzhash seed must be between -2147483648 and 4294967295, borg's 32-bit seed (got " +
                        std::to_string(signed_seed) + ")");
    return static_cast<std::uint32_t>(seed);
}

Table make_table(std::uint32_t seed) noexcept {
    Table table;
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = table_base[i] ^ seed;
    return table;
}

std::uint32_t hash(std::span<const std::uint8_t> data, const Table& table) noexcept {
    // Horner's rule (sum = rotl(sum, 1) ^ entry per byte) gives the same XOR of rotated entries; four sums over
    // every fourth byte, each rotated by four per step, keep four such chains in flight.
    std::uint32_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
    const std::uint8_t* at = data.data();
    const std::uint8_t* const end = at + data.size();
    for (; end - at >= 4; at += 4) {
        sum0 = std::rotl(sum0, 4) ^ table[at[0]];
        sum1 = std::rotl(sum1, 4) ^ table[at[1]];
        sum2 = std::rotl(sum2, 4) ^ table[at[2]];
        sum3 = std::rotl(sum3, 4) ^ table[at[3]];
    }
    // Each sum's last byte lies 3, 2, 1 and 0 places before the last byte so far.
    std::uint32_t sum = std::rotl(sum0, 3) ^ std::rotl(sum1, 2) ^ std::rotl(sum2, 1) ^ sum3;
    for (; at != end; ++at) sum = std::rotl(sum, 1) ^ table[*at];
    return sum;
}

}  // namespace buzhash

namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorKind::invalid_parameter, message); }

std::string str(std::size_t n) { return std::to_string(n); }

// Checked before the table is built. borg's own limits: sizes are powers of two, max_size <= MAX_DATA_SIZE and
// min_size + window_size + 1 <= max_size (its "too small max_size" assertion); min <= avg <= max as borg's
// ChunkerParams requires.
const ChunkerSettings& validated_buzhash(const ChunkerSettings& s) {
    const std::size_t window = s.window_size == 0 ? buzhash::default_window : s.window_size;
    check_window_size(static_cast<std::int64_t>(window));
    buzhash::seed32(s.seed);
    if (!std::has_single_bit(s.min_size))
        invalid("buzhash chunker min_size must be a power of two, 2^chunk_min_exp (got " + str(s.min_size) + ")");
    if (!std::has_single_bit(s.avg_size))
        invalid("buzhash chunker avg_size must be a power of two, 2^hash_mask_bits (got " + str(s.avg_size) + ")");
    if (!std::has_single_bit(s.max_size) || s.max_size > buzhash::max_chunk_size)
        invalid("buzhash chunker max_size must be a power of two, 2^chunk_max_exp, at most " +
                str(buzhash::max_chunk_size) + " (got " + str(s.max_size) + ")");
    if (!(s.min_size <= s.avg_size && s.avg_size <= s.max_size))
        invalid("buzhash chunker sizes must satisfy min_size <= avg_size <= max_size (got " + str(s.min_size) + ", " +
                str(s.avg_size) + ", " + str(s.max_size) + ")");
    if (s.min_size + window + 1 > s.max_size)
        invalid("buzhash chunker needs min_size + window_size + 1 <= max_size (got " + str(s.min_size) + " + " +
                str(window) + " + 1 > " + str(s.max_size) + ")");
    return s;
}

}  // namespace

BuzhashChunker::BuzhashChunker(const ChunkerSettings& s)
    : BoundedChunker(validated_buzhash(s).max_size),
      min_size_(s.min_size),
      window_(s.window_size == 0 ? buzhash::default_window : s.window_size),
      mask_(static_cast<std::uint32_t>(s.avg_size - 1)),
      table_(buzhash::make_table(buzhash::seed32(s.seed))) {
    for (std::size_t b = 0; b < table_.size(); ++b)
        leaving_[b] = std::rotl(table_[b], static_cast<int>(window_ & 0x1f));
}

Cut BuzhashChunker::cut(std::span<const std::uint8_t> data, bool final) const {
    if (!final && data.size() < max_size_)
        invalid("chunker cut() needs at least lookahead() bytes unless final (got " + str(data.size()) + ")");
    // borg emits whatever is left as one chunk, unhashed, once fewer than min_size + window + 1 bytes remain
    // (only possible at the end: max_size is at least that much).
    if (data.size() < min_size_ + window_ + 1) return {data.size(), 0};

    // The window starts at the potential cut: cutting at p means data[p, p + window) hashed to 0 under the mask.
    // borg tests windows while p + window < end; the window that ends exactly at end is hashed but not tested,
    // so chunks are never between end - window and end bytes long.
    const std::size_t end = std::min(data.size(), max_size_);
    std::uint32_t sum = buzhash::hash(data.subspan(min_size_, window_), table_);
    // The byte leaving the window and the byte entering it, walked together; the leaving byte's rotation is in
    // leaving_. Within a round of 32 steps the loop keeps `unrotated`, the sum rotated back by the steps taken
    // (k): then a step is one XOR into it (of the new entries rotated right by k + 1, a constant per unrolled
    // step) instead of a rotate and an XOR, halving the chain each step waits on; the mask is rotated back
    // alike. After 32 steps the rotation is whole again.
    const std::uint8_t* const first = data.data();
    const std::uint8_t* const last = first + end - window_;  // the first p that is not tested
    const std::uint8_t* out = first + min_size_;
    for (; last - out >= 32; out += 32) {
        std::uint32_t unrotated = sum;
        std::uint32_t mask = mask_;
#pragma GCC unroll 32
        for (int k = 0; k < 32; ++k) {
            if ((unrotated & mask) == 0) return {static_cast<std::size_t>(out + k - first), std::rotl(unrotated, k)};
            unrotated ^= std::rotr(leaving_[out[k]] ^ table_[out[k + window_]], k + 1);
            mask = std::rotr(mask, 1);
        }
        sum = unrotated;
    }
    for (; out < last; ++out) {
        if ((sum & mask_) == 0) return {static_cast<std::size_t>(out - first), sum};
        sum = std::rotl(sum, 1) ^ leaving_[*out] ^ table_[out[window_]];
    }
    return {end, sum};
}

}  // namespace idcodec::cdc
