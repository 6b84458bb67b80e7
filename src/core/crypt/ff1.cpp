#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <new>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <optional>
#include <string>
#include <vector>

#include "core/common/big_endian.hpp"
#include "core/common/error.hpp"
#include "core/crypt/ff1.hpp"

namespace idcodec::crypt {

namespace {

using Block = std::array<std::uint8_t, 16>;

struct BnFree {
    void operator()(BIGNUM* bn) const noexcept { BN_free(bn); }
};
struct BnCtxFree {
    void operator()(BN_CTX* ctx) const noexcept { BN_CTX_free(ctx); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;

Bn new_bn() {
    Bn bn(BN_new());
    if (!bn) throw std::bad_alloc();
    return bn;
}

// OpenSSL reports a failed big-number operation (only ever a failed allocation here) by returning 0.
void check(int ok) {
    if (ok == 0) throw std::bad_alloc();
}

// A cipher OpenSSL would not set up or run (a configuration without AES, say): not the caller's fault, nor memory.
[[noreturn]] void cipher_failed(const char* what) {
    ERR_clear_error();
    throw std::runtime_error(std::string("OpenSSL could not ") + what);
}

void put_be(std::uint8_t* out, std::uint64_t value, std::size_t bytes) {
    for (std::size_t k = bytes; k-- > 0; value >>= 8) out[k] = static_cast<std::uint8_t>(value);
}

// (high * 2^64 + low) mod modulus, for high below 2^32. On x86-64 one division instruction takes the 128-bit
// numerator (high is first reduced below the modulus, as the instruction requires); elsewhere the compiler's
// 128-bit remainder does it.
std::uint64_t remainder_128(std::uint64_t high, std::uint64_t low, std::uint64_t modulus) noexcept {
#if defined(__x86_64__)
    if (high >= modulus) high %= modulus;
    std::uint64_t quotient, remainder;
    asm("divq %4" : "=a"(quotient), "=d"(remainder) : "a"(low), "d"(high), "rm"(modulus) : "cc");
    return remainder;
#else
    using u128 = unsigned __int128;
    return static_cast<std::uint64_t>((u128{high} << 64 | low) % modulus);
#endif
}

// The most bytes of NUM_radix of a half (512 numerals of 16 bits), and so of Q.
constexpr std::size_t max_b = (Ff1::max_length + 1) / 2 * 16 / 8;
constexpr std::size_t max_q = Ff1::max_tweak_bytes + 15 + 1 + max_b;

}  // namespace

class Aes {
public:
    // A block as one 16-byte value (two words in memory order). Built from parts in registers and written to memory
    // whole: AES reads its input at once, and a read of bytes written in smaller pieces just before would wait for
    // those writes to complete.
    using Lanes = std::uint64_t __attribute__((vector_size(16)));

    static Lanes lanes(const std::uint8_t* bytes) noexcept {
        std::uint64_t first, second;
        std::memcpy(&first, bytes, 8);
        std::memcpy(&second, bytes + 8, 8);
        return Lanes{first, second};
    }

    explicit Aes(std::span<const std::uint8_t> key) {
        const EVP_CIPHER* aes = key.size() == 16   ? EVP_aes_128_ecb()
                                : key.size() == 24 ? EVP_aes_192_ecb()
                                : key.size() == 32 ? EVP_aes_256_ecb()
                                                   : nullptr;
        if (aes == nullptr)
            throw Error(ErrorKind::invalid_parameter,
                        "FF1 key must be 16, 24 or 32 bytes (AES-128, -192 or -256), got " +
                            std::to_string(key.size()) + " bytes");
        context_ = EVP_CIPHER_CTX_new();
        if (context_ == nullptr) throw std::bad_alloc();
        if (EVP_EncryptInit_ex(context_, aes, nullptr, key.data(), nullptr) != 1 ||
            EVP_CIPHER_CTX_set_padding(context_, 0) != 1) {
            EVP_CIPHER_CTX_free(context_);
            cipher_failed("set up AES");
        }
    }
    ~Aes() { EVP_CIPHER_CTX_free(context_); }  // clears the key schedule
    Aes(const Aes&) = delete;
    Aes& operator=(const Aes&) = delete;

    // CIPH_K: one AES block.
    Lanes encrypt(Lanes in) const {
        alignas(16) std::uint8_t in_bytes[16], out_bytes[16];
        std::memcpy(in_bytes, &in, sizeof in_bytes);
        int written = 0;
        if (EVP_EncryptUpdate(context_, out_bytes, &written, in_bytes, sizeof in_bytes) != 1 ||
            written != sizeof out_bytes)
            cipher_failed("encrypt an AES block");
        Lanes out;
        std::memcpy(&out, out_bytes, sizeof out);
        return out;
    }

    // The CBC-MAC of FF1's first block P, which depends only on the radix and the lengths: the last one is kept, as
    // a run of calls (IDs of one table) uses one P.
    Lanes mac_of_p(const std::array<std::uint8_t, 16>& p) const {
        if (p != last_p_ || !has_last_p_) {
            mac_of_last_p_ = mac(Lanes{}, p);
            last_p_ = p;
            has_last_p_ = true;
        }
        return mac_of_last_p_;
    }

    // CBC-MAC of `blocks` (a whole number of blocks) continued from the chaining value `chain`.
    Lanes mac(Lanes chain, std::span<const std::uint8_t> blocks) const {
        for (std::size_t at = 0; at < blocks.size(); at += 16) chain = encrypt(chain ^ lanes(blocks.data() + at));
        return chain;
    }

private:
    EVP_CIPHER_CTX* context_ = nullptr;
    mutable std::array<std::uint8_t, 16> last_p_{};
    mutable Lanes mac_of_last_p_{};
    mutable bool has_last_p_ = false;
};

Ff1::Ff1(std::span<const std::uint8_t> key) : aes_(std::make_unique<Aes>(key)) {}
Ff1::~Ff1() = default;
Ff1::Ff1(Ff1&&) noexcept = default;
Ff1& Ff1::operator=(Ff1&&) noexcept = default;

void Ff1::check_domain(std::uint32_t radix, std::size_t length) {
    if (radix < min_radix || radix > max_radix)
        throw Error(ErrorKind::invalid_parameter,
                    "FF1 radix must be between 2 and 65536 (got " + std::to_string(radix) + ")");
    if (length > max_length)
        throw Error(ErrorKind::invalid_parameter, "FF1 input must be at most " + std::to_string(max_length) +
                                                      " characters (got " + std::to_string(length) + ")");
    std::uint64_t domain = 1;
    for (std::size_t k = 0; k < length && domain < min_domain; ++k) domain *= radix;
    if (length < 2 || domain < min_domain)
        throw Error(ErrorKind::invalid_parameter,
                    "FF1 domain is too small: radix^length must be at least 1000000 (radix " + std::to_string(radix) +
                        ", length " + std::to_string(length) + ")");
}

void Ff1::encrypt(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
                  std::span<std::uint32_t> out) const {
    run(in, radix, tweak, out, true);
}

void Ff1::decrypt(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
                  std::span<std::uint32_t> out) const {
    run(in, radix, tweak, out, false);
}

namespace {

// The arithmetic of the rounds on the halves' values, in two forms: below 2^64 (every identifier's domain: base 62
// up to 20 characters a half) with machine integers, else with OpenSSL's big numbers. The rounds never write
// numerals: a half is read into its value once, and its numerals written once at the end. Each form holds radix^u
// and radix^v; per round it writes the hashed half's value as the b bytes Q ends with, and replaces the changed
// half's value x by (x ± NUM(S)) mod radix^m.
class MachineArithmetic {
public:
    using Number = std::uint64_t;

    // Nothing when radix^v does not fit.
    static std::optional<MachineArithmetic> of(std::uint32_t radix, std::size_t u, std::size_t v) {
        std::uint64_t power_v = 1;
        for (std::size_t k = 0; k < v; ++k)
            if (__builtin_mul_overflow(power_v, radix, &power_v)) return std::nullopt;
        std::uint64_t power_u = 1;
        for (std::size_t k = 0; k < u; ++k) power_u *= radix;  // u <= v
        return MachineArithmetic(radix, Ff1::Halves{power_u, power_v});
    }

    // `powers`: radix^u and radix^v, as of() finds them.
    MachineArithmetic(std::uint32_t radix, Ff1::Halves powers)
        : radix_(radix),
          power_u_(powers.first),
          power_v_(powers.second),
          b_((static_cast<std::size_t>(std::bit_width(power_v_ - 1)) + 7) / 8) {}

    Ff1::Halves limits() const noexcept { return {power_u_, power_v_}; }

    std::size_t b() const noexcept { return b_; }

    bool holds(Number x, bool first_half) const noexcept { return x < (first_half ? power_u_ : power_v_); }

    Number read(std::span<const std::uint32_t> numerals) const noexcept {
        std::uint64_t x = 0;
        for (const std::uint32_t numeral : numerals) x = x * radix_ + numeral;
        return x;
    }

    void write(Number x, std::span<std::uint32_t> numerals) const noexcept {
        for (std::size_t k = numerals.size(); k-- > 0; x /= radix_)
            numerals[k] = static_cast<std::uint32_t>(x % radix_);
    }

    // The round's CBC-MAC of Q from the chaining value of its fixed blocks. Q's last block is all that is left
    // (b <= 8), and it is built in registers: `rest` is that block with [i] and the hashed value zero.
    Aes::Lanes mac_of_round(const Aes& aes, Aes::Lanes after_fixed, std::span<std::uint8_t> rest, int i,
                            Number hashed) const {
        const auto round = static_cast<std::uint64_t>(i);
        const Aes::Lanes tail = b_ < 8 ? Aes::Lanes{0, native_of_be(round << (8 * b_) | hashed)}
                                       : Aes::Lanes{native_of_be(round), native_of_be(hashed)};
        return aes.encrypt(after_fixed ^ Aes::lanes(rest.data()) ^ tail);
    }

    // S is the first d bytes of R here (b <= 8, so d is 8 or 12), taken from R in registers.
    void combine(const Aes&, Number& x, Aes::Lanes r, bool first_half, bool adding) const noexcept {
        const std::uint64_t modulus = first_half ? power_u_ : power_v_;
        const std::uint64_t r0 = native_of_be(r[0]), r1 = native_of_be(r[1]);  // R's bytes 0-7 and 8-15
        const std::uint64_t high = b_ > 4 ? r0 >> 32 : 0, low = b_ > 4 ? r0 << 32 | r1 >> 32 : r0;
        const std::uint64_t y = remainder_128(high, low, modulus);
        // x and y are below the modulus, which may exceed 2^63: no sum is formed that could wrap
        if (adding) {
            x = x >= modulus - y ? x - (modulus - y) : x + y;
        } else {
            x = x >= y ? x - y : x + (modulus - y);
        }
    }

private:
    std::uint32_t radix_;
    std::uint64_t power_u_, power_v_;
    std::size_t b_;  // ceil(ceil(v * log2(radix)) / 8), the bytes of radix^v - 1, without floating point
};

class BigArithmetic {
public:
    using Number = Bn;

    BigArithmetic(std::uint32_t radix, std::size_t u, std::size_t v)
        : radix_(radix), power_u_(power(radix, u)), power_v_(power(radix, v)), context_(BN_CTX_new()) {
        if (!context_) throw std::bad_alloc();
        check(BN_copy(scratch_.get(), power_v_.get()) != nullptr);
        check(BN_sub_word(scratch_.get(), 1));
        b_ = (static_cast<std::size_t>(BN_num_bits(scratch_.get())) + 7) / 8;
        d_ = 4 * ((b_ + 3) / 4) + 4;
        s_.resize((d_ + 15) / 16 * 16);
    }

    std::size_t b() const noexcept { return b_; }

    Number read(std::span<const std::uint32_t> numerals) const {
        Bn x = new_bn();
        for (const std::uint32_t numeral : numerals) {
            check(BN_mul_word(x.get(), radix_));
            check(BN_add_word(x.get(), numeral));
        }
        return x;
    }

    // `x` is consumed.
    void write(Number& x, std::span<std::uint32_t> numerals) const {
        for (std::size_t k = numerals.size(); k-- > 0;) {
            const BN_ULONG numeral = BN_div_word(x.get(), radix_);
            if (numeral == static_cast<BN_ULONG>(-1)) throw std::bad_alloc();
            numerals[k] = static_cast<std::uint32_t>(numeral);
        }
    }

    // The round's CBC-MAC of Q from the chaining value of its fixed blocks, over `rest`, the blocks left, which end
    // with [i] and the hashed value.
    Aes::Lanes mac_of_round(const Aes& aes, Aes::Lanes after_fixed, std::span<std::uint8_t> rest, int i,
                            const Number& hashed) const {
        rest[rest.size() - b_ - 1] = static_cast<std::uint8_t>(i);
        // below radix^v, so it fits in b bytes: -1 would be an allocation failure
        if (BN_bn2binpad(hashed.get(), rest.data() + rest.size() - b_, static_cast<int>(b_)) != static_cast<int>(b_))
            throw std::bad_alloc();
        return aes.mac(after_fixed, rest);
    }

    // S = R || CIPH(R xor [1]^16) || ... , its first d bytes.
    void combine(const Aes& aes, Number& x, Aes::Lanes r, bool first_half, bool adding) const {
        std::memcpy(s_.data(), &r, sizeof r);
        for (std::size_t j = 1; j * 16 < d_; ++j) {
            const Aes::Lanes more = aes.encrypt(r ^ Aes::Lanes{0, native_of_be(j)});
            std::memcpy(s_.data() + 16 * j, &more, sizeof more);
        }
        check(BN_bin2bn(s_.data(), static_cast<int>(d_), scratch_.get()) != nullptr);
        const BIGNUM* modulus = first_half ? power_u_.get() : power_v_.get();
        check(adding ? BN_mod_add(result_.get(), x.get(), scratch_.get(), modulus, context_.get())
                     : BN_mod_sub(result_.get(), x.get(), scratch_.get(), modulus, context_.get()));
        std::swap(x, result_);
    }

private:
    // radix^exponent
    static Bn power(std::uint32_t radix, std::size_t exponent) {
        Bn result = new_bn();
        check(BN_one(result.get()));
        for (std::size_t k = 0; k < exponent; ++k) check(BN_mul_word(result.get(), radix));
        return result;
    }

    std::uint32_t radix_;
    Bn power_u_, power_v_;
    std::unique_ptr<BN_CTX, BnCtxFree> context_;
    std::size_t b_ = 0;  // the bytes of radix^v - 1
    std::size_t d_ = 0;  // the bytes of S
    mutable std::vector<std::uint8_t> s_;
    Bn scratch_ = new_bn();
    mutable Bn result_ = new_bn();
};

// The ten Feistel rounds of FF1 encryption or decryption, with the standard's names (A, B, P, Q, R, S, b, d, m,
// u, v), on the values of the halves A and B (numeral strings of n/2 rounded down and up), `first` and `second`,
// which they replace.
template <class Arithmetic>
void rounds(const Aes& aes, const Arithmetic& arithmetic, typename Arithmetic::Number& first,
            typename Arithmetic::Number& second, std::uint32_t radix, std::size_t n,
            std::span<const std::uint8_t> tweak, bool encrypting) {
    const std::size_t u = n / 2;
    const std::size_t b_bytes = arithmetic.b();
    const std::size_t t = tweak.size();

    Block p{1, 2, 1};
    put_be(&p[3], radix, 3);
    p[6] = 10;
    p[7] = static_cast<std::uint8_t>(u % 256);
    put_be(&p[8], n, 4);
    put_be(&p[12], t, 4);

    // Q = T || zeros || [i] || [NUM_radix(B)]^b, a whole number of blocks. Its blocks before the one [i] is in are
    // the same in every round, so their CBC-MAC after P's is taken once; the arithmetic fills in the rest.
    const std::size_t zeros = (16 - (t + b_bytes + 1) % 16) % 16;
    std::array<std::uint8_t, max_q> q_buffer;
    const std::span<std::uint8_t> q(q_buffer.data(), t + zeros + 1 + b_bytes);
    std::copy(tweak.begin(), tweak.end(), q.begin());
    std::fill(q.begin() + static_cast<std::ptrdiff_t>(t), q.end(), 0);
    const std::size_t fixed = (t + zeros) / 16 * 16;
    const Aes::Lanes after_fixed = aes.mac(aes.mac_of_p(p), q.first(fixed));
    // Local, so that machine integers stay in registers through the rounds.
    typename Arithmetic::Number a = std::move(first), b = std::move(second);
    for (int round = 0; round < 10; ++round) {
        const int i = encrypting ? round : 9 - round;
        // Encrypting, the round hashes B and changes A; decrypting, it hashes A and restores B.
        const Aes::Lanes r = arithmetic.mac_of_round(aes, after_fixed, q.subspan(fixed), i, encrypting ? b : a);
        // m = u in even rounds, v in odd ones. The changed half becomes C and the halves swap.
        arithmetic.combine(aes, encrypting ? a : b, r, i % 2 == 0, encrypting);
        std::swap(a, b);
    }
    // After ten swaps the halves are back in their places.
    first = std::move(a);
    second = std::move(b);
}

void check_tweak(std::span<const std::uint8_t> tweak) {
    if (tweak.size() > Ff1::max_tweak_bytes)
        throw Error(ErrorKind::invalid_parameter, "FF1 tweak must be at most " + std::to_string(Ff1::max_tweak_bytes) +
                                                      " bytes (got " + std::to_string(tweak.size()) + ")");
}

template <class Arithmetic>
void run_numerals(const Aes& aes, const Arithmetic& arithmetic, std::span<const std::uint32_t> in, std::uint32_t radix,
                  std::span<const std::uint8_t> tweak, std::span<std::uint32_t> out, bool encrypting) {
    const std::size_t u = in.size() / 2;
    typename Arithmetic::Number a = arithmetic.read(in.first(u)), b = arithmetic.read(in.subspan(u));
    rounds(aes, arithmetic, a, b, radix, in.size(), tweak, encrypting);
    arithmetic.write(a, out.first(u));
    arithmetic.write(b, out.subspan(u));
}

}  // namespace

Ff1::Halves Ff1::encrypt(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak) const {
    return run(in, domain, tweak, true);
}

Ff1::Halves Ff1::decrypt(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak) const {
    return run(in, domain, tweak, false);
}

std::optional<Ff1::HalvesDomain> Ff1::halves_domain(std::uint32_t radix, std::size_t length) {
    check_domain(radix, length);
    const std::optional<MachineArithmetic> machine = MachineArithmetic::of(radix, length / 2, length - length / 2);
    if (!machine) return std::nullopt;
    return HalvesDomain(radix, length, machine->limits());
}

Ff1::Halves Ff1::run(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak,
                     bool encrypting) const {
    check_tweak(tweak);
    const MachineArithmetic machine(domain.radix(), domain.limits());
    if (!machine.holds(in.first, true) || !machine.holds(in.second, false))
        throw Error(ErrorKind::invalid_parameter, "FF1 half is not below radix^(its length)");
    rounds(*aes_, machine, in.first, in.second, domain.radix(), domain.length(), tweak, encrypting);
    return in;
}

void Ff1::run(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
              std::span<std::uint32_t> out, bool encrypting) const {
    const std::size_t n = in.size();
    check_domain(radix, n);
    check_tweak(tweak);
    if (out.size() != n) throw Error(ErrorKind::invalid_parameter, "FF1 output must have the input's length");
    for (const std::uint32_t numeral : in)
        if (numeral >= radix) throw Error(ErrorKind::invalid_parameter, "FF1 numeral is not below the radix");
    const std::size_t u = n / 2, v = n - u;
    if (const std::optional<MachineArithmetic> machine = MachineArithmetic::of(radix, u, v)) {
        run_numerals(*aes_, *machine, in, radix, tweak, out, encrypting);
    } else {
        run_numerals(*aes_, BigArithmetic(radix, u, v), in, radix, tweak, out, encrypting);
    }
}

}  // namespace idcodec::crypt
