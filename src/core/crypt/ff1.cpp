#include <algorithm>
#include <array>
#include <bit>
#include <new>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <optional>
#include <string>
#include <vector>

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

// radix^exponent
Bn power(std::uint32_t radix, std::size_t exponent) {
    Bn result = new_bn();
    check(BN_one(result.get()));
    for (std::size_t k = 0; k < exponent; ++k) check(BN_mul_word(result.get(), radix));
    return result;
}

// NUM_radix: the numeral string read as a number, most significant numeral first.
void read_numerals(std::span<const std::uint32_t> numerals, std::uint32_t radix, BIGNUM* out) {
    BN_zero(out);
    for (const std::uint32_t numeral : numerals) {
        check(BN_mul_word(out, radix));
        check(BN_add_word(out, numeral));
    }
}

// STR^m_radix: the number (below radix^m) as m numerals, most significant first; `value` is consumed.
void write_numerals(BIGNUM* value, std::uint32_t radix, std::span<std::uint32_t> out) {
    for (std::size_t k = out.size(); k-- > 0;) {
        const BN_ULONG numeral = BN_div_word(value, radix);
        if (numeral == static_cast<BN_ULONG>(-1)) throw std::bad_alloc();
        out[k] = static_cast<std::uint32_t>(numeral);
    }
}

void put_be(std::uint8_t* out, std::uint64_t value, std::size_t bytes) {
    for (std::size_t k = bytes; k-- > 0; value >>= 8) out[k] = static_cast<std::uint8_t>(value);
}

}  // namespace

struct Ff1::Cipher {
    EVP_CIPHER_CTX* context = nullptr;

    explicit Cipher(std::span<const std::uint8_t> key) {
        const EVP_CIPHER* aes = key.size() == 16   ? EVP_aes_128_ecb()
                                : key.size() == 24 ? EVP_aes_192_ecb()
                                : key.size() == 32 ? EVP_aes_256_ecb()
                                                   : nullptr;
        if (aes == nullptr)
            throw Error(ErrorKind::invalid_parameter,
                        "FF1 key must be 16, 24 or 32 bytes (AES-128, -192 or -256), got " +
                            std::to_string(key.size()) + " bytes");
        context = EVP_CIPHER_CTX_new();
        if (context == nullptr) throw std::bad_alloc();
        if (EVP_EncryptInit_ex(context, aes, nullptr, key.data(), nullptr) != 1 ||
            EVP_CIPHER_CTX_set_padding(context, 0) != 1) {
            EVP_CIPHER_CTX_free(context);
            cipher_failed("set up AES");
        }
    }
    ~Cipher() { EVP_CIPHER_CTX_free(context); }  // clears the key schedule
    Cipher(const Cipher&) = delete;
    Cipher& operator=(const Cipher&) = delete;

    // CIPH_K: one AES block.
    Block encrypt(const Block& in) const {
        Block out;
        int written = 0;
        if (EVP_EncryptUpdate(context, out.data(), &written, in.data(), static_cast<int>(in.size())) != 1 ||
            written != static_cast<int>(out.size()))
            cipher_failed("encrypt an AES block");
        return out;
    }

    // CBC-MAC of `blocks` (a whole number of blocks) continued from the chaining value `chain`.
    Block mac(Block chain, std::span<const std::uint8_t> blocks) const {
        for (std::size_t at = 0; at < blocks.size(); at += chain.size()) {
            for (std::size_t k = 0; k < chain.size(); ++k) chain[k] ^= blocks[at + k];
            chain = encrypt(chain);
        }
        return chain;
    }
};

Ff1::Ff1(std::span<const std::uint8_t> key) : cipher_(std::make_unique<Cipher>(key)) {}
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

// The arithmetic of the rounds, in two forms: on halves whose values stay below 2^64 (every identifier's domain:
// base 62 up to 20 characters a half), with machine integers; on any other, with OpenSSL's big numbers. Each holds
// radix^u and radix^v and does, per round, NUM_radix of the hashed half as the b bytes Q ends with, and the changed
// half's (NUM_radix(X) ± NUM(S)) mod radix^m written back as m numerals.
class SmallHalves {
public:
    // Nothing when radix^v does not fit.
    static std::optional<SmallHalves> of(std::uint32_t radix, std::size_t u, std::size_t v) {
        std::uint64_t power_v = 1;
        for (std::size_t k = 0; k < v; ++k)
            if (__builtin_mul_overflow(power_v, radix, &power_v)) return std::nullopt;
        std::uint64_t power_u = 1;
        for (std::size_t k = 0; k < u; ++k) power_u *= radix;  // u <= v
        return SmallHalves(radix, power_u, power_v);
    }

    // bits(radix^v - 1) = ceil(v * log2(radix)), without floating point
    std::size_t bits_v() const noexcept { return static_cast<std::size_t>(std::bit_width(power_v_ - 1)); }

    void put_hashed(std::span<const std::uint32_t> half, std::span<std::uint8_t> out) const noexcept {
        put_be(out.data(), number(half), out.size());
    }

    // `s` is at most 12 bytes here (b <= 8, so d <= 12).
    void combine(std::span<std::uint32_t> changed, std::span<const std::uint8_t> s, bool first_half,
                 bool adding) const noexcept {
        using u128 = unsigned __int128;
        u128 y = 0;
        for (const std::uint8_t byte : s) y = y << 8 | byte;
        const std::uint64_t modulus = first_half ? power_u_ : power_v_;
        const auto y_mod = static_cast<std::uint64_t>(y % modulus);
        const std::uint64_t x = number(changed);
        std::uint64_t c = static_cast<std::uint64_t>((adding ? u128{x} + y_mod : u128{x} + modulus - y_mod) % modulus);
        for (std::size_t k = changed.size(); k-- > 0; c /= radix_) changed[k] = static_cast<std::uint32_t>(c % radix_);
    }

private:
    SmallHalves(std::uint32_t radix, std::uint64_t power_u, std::uint64_t power_v)
        : radix_(radix), power_u_(power_u), power_v_(power_v) {}

    std::uint64_t number(std::span<const std::uint32_t> half) const noexcept {
        std::uint64_t x = 0;
        for (const std::uint32_t numeral : half) x = x * radix_ + numeral;
        return x;
    }

    std::uint32_t radix_;
    std::uint64_t power_u_, power_v_;
};

class BigHalves {
public:
    BigHalves(std::uint32_t radix, std::size_t u, std::size_t v)
        : radix_(radix), power_u_(power(radix, u)), power_v_(power(radix, v)), context_(BN_CTX_new()) {
        if (!context_) throw std::bad_alloc();
    }

    std::size_t bits_v() const {
        check(BN_copy(number_.get(), power_v_.get()) != nullptr);
        check(BN_sub_word(number_.get(), 1));
        return static_cast<std::size_t>(BN_num_bits(number_.get()));
    }

    void put_hashed(std::span<const std::uint32_t> half, std::span<std::uint8_t> out) const {
        read_numerals(half, radix_, number_.get());
        // below radix^v, so it fits in b bytes: -1 would be an allocation failure
        if (BN_bn2binpad(number_.get(), out.data(), static_cast<int>(out.size())) != static_cast<int>(out.size()))
            throw std::bad_alloc();
    }

    void combine(std::span<std::uint32_t> changed, std::span<const std::uint8_t> s, bool first_half,
                 bool adding) const {
        check(BN_bin2bn(s.data(), static_cast<int>(s.size()), y_.get()) != nullptr);
        const BIGNUM* modulus = first_half ? power_u_.get() : power_v_.get();
        read_numerals(changed, radix_, number_.get());
        check(adding ? BN_mod_add(c_.get(), number_.get(), y_.get(), modulus, context_.get())
                     : BN_mod_sub(c_.get(), number_.get(), y_.get(), modulus, context_.get()));
        write_numerals(c_.get(), radix_, changed);
    }

private:
    std::uint32_t radix_;
    Bn power_u_, power_v_;
    std::unique_ptr<BN_CTX, BnCtxFree> context_;
    Bn number_ = new_bn(), y_ = new_bn(), c_ = new_bn();
};

}  // namespace

// The FF1 rounds of SP 800-38G Rev. 1 (algorithms 7 and 8), with the names it uses.
void Ff1::run(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
              std::span<std::uint32_t> out, bool encrypting) const {
    const std::size_t n = in.size();
    check_domain(radix, n);
    if (tweak.size() > max_tweak_bytes)
        throw Error(ErrorKind::invalid_parameter, "FF1 tweak must be at most " + std::to_string(max_tweak_bytes) +
                                                      " bytes (got " + std::to_string(tweak.size()) + ")");
    if (out.size() != n) throw Error(ErrorKind::invalid_parameter, "FF1 output must have the input's length");
    for (const std::uint32_t numeral : in)
        if (numeral >= radix) throw Error(ErrorKind::invalid_parameter, "FF1 numeral is not below the radix");
    const std::size_t u = n / 2, v = n - u;
    if (const std::optional<SmallHalves> small = SmallHalves::of(radix, u, v)) {
        rounds(*small, in, radix, tweak, out, encrypting);
    } else {
        rounds(BigHalves(radix, u, v), in, radix, tweak, out, encrypting);
    }
}

template <class Halves>
void Ff1::rounds(const Halves& halves, std::span<const std::uint32_t> in, std::uint32_t radix,
                 std::span<const std::uint8_t> tweak, std::span<std::uint32_t> out, bool encrypting) const {
    const std::size_t n = in.size(), u = n / 2, v = n - u;
    // b = ceil(ceil(v * log2(radix)) / 8), the bytes of radix^v - 1
    const std::size_t b = (halves.bits_v() + 7) / 8;
    const std::size_t d = 4 * ((b + 3) / 4) + 4;
    const std::size_t t = tweak.size();

    Block p{1, 2, 1};
    put_be(&p[3], radix, 3);
    p[6] = 10;
    p[7] = static_cast<std::uint8_t>(u % 256);
    put_be(&p[8], n, 4);
    put_be(&p[12], t, 4);
    const Block after_p = cipher_->mac(Block{}, p);

    // Q = T || zeros || [i] || [NUM_radix(B)]^b, a whole number of blocks
    const std::size_t zeros = (16 - (t + b + 1) % 16) % 16;
    std::vector<std::uint8_t> q(t + zeros + 1 + b);
    std::copy(tweak.begin(), tweak.end(), q.begin());
    std::uint8_t* const round_byte = &q[t + zeros];
    const std::span<std::uint8_t> numeral_bytes(round_byte + 1, b);
    std::vector<std::uint8_t> s((d + 15) / 16 * 16);

    std::vector<std::uint32_t> a(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(u));
    std::vector<std::uint32_t> bb(in.begin() + static_cast<std::ptrdiff_t>(u), in.end());
    for (int round = 0; round < 10; ++round) {
        const int i = encrypting ? round : 9 - round;
        // Encrypting, the round hashes B and changes A; decrypting, it hashes A and restores B.
        const std::vector<std::uint32_t>& hashed = encrypting ? bb : a;
        std::vector<std::uint32_t>& changed = encrypting ? a : bb;
        *round_byte = static_cast<std::uint8_t>(i);
        halves.put_hashed(hashed, numeral_bytes);
        const Block r = cipher_->mac(after_p, q);
        std::copy(r.begin(), r.end(), s.begin());
        for (std::size_t j = 1; j * 16 < d; ++j) {
            Block counter = r;
            for (std::size_t k = 0; k < 16; ++k)
                counter[k] ^= static_cast<std::uint8_t>(k >= 8 ? j >> (8 * (15 - k)) : 0);
            const Block more = cipher_->encrypt(counter);
            std::copy(more.begin(), more.end(), s.begin() + static_cast<std::ptrdiff_t>(16 * j));
        }
        // m = u in even rounds, v in odd ones. The changed half becomes C and the halves swap.
        const bool first_half = i % 2 == 0;
        changed.resize(first_half ? u : v);
        halves.combine(changed, std::span<const std::uint8_t>(s.data(), d), first_half, encrypting);
        std::swap(a, bb);
    }
    // After ten swaps the halves are back in their places.
    std::copy(a.begin(), a.end(), out.begin());
    std::copy(bb.begin(), bb.end(), out.begin() + static_cast<std::ptrdiff_t>(a.size()));
}

}  // namespace idcodec::crypt
