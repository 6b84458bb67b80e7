#include <algorithm>
#include <array>
#include <new>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
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
    const Bn radix_u = power(radix, u), radix_v = power(radix, v);
    // b: the bytes of radix^v - 1, which is ceil(ceil(v * log2(radix)) / 8) without floating point.
    Bn largest = new_bn();
    check(BN_copy(largest.get(), radix_v.get()) != nullptr);
    check(BN_sub_word(largest.get(), 1));
    const std::size_t b = (static_cast<std::size_t>(BN_num_bits(largest.get())) + 7) / 8;
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
    std::uint8_t* const numeral_bytes = round_byte + 1;
    std::vector<std::uint8_t> s((d + 15) / 16 * 16);

    std::vector<std::uint32_t> a(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(u));
    std::vector<std::uint32_t> bb(in.begin() + static_cast<std::ptrdiff_t>(u), in.end());
    const std::unique_ptr<BN_CTX, BnCtxFree> context(BN_CTX_new());
    if (!context) throw std::bad_alloc();
    Bn number = new_bn(), y = new_bn(), c = new_bn();

    for (int round = 0; round < 10; ++round) {
        const int i = encrypting ? round : 9 - round;
        // Encrypting, the round hashes B and changes A; decrypting, it hashes A and restores B.
        std::vector<std::uint32_t>& hashed = encrypting ? bb : a;
        std::vector<std::uint32_t>& changed = encrypting ? a : bb;
        *round_byte = static_cast<std::uint8_t>(i);
        read_numerals(hashed, radix, number.get());
        // NUM_radix of either half is below radix^v, so it fits in b bytes: -1 would be an allocation failure
        if (BN_bn2binpad(number.get(), numeral_bytes, static_cast<int>(b)) != static_cast<int>(b))
            throw std::bad_alloc();
        const Block r = cipher_->mac(after_p, q);
        std::copy(r.begin(), r.end(), s.begin());
        for (std::size_t j = 1; j * 16 < d; ++j) {
            Block counter = r;
            for (std::size_t k = 0; k < 16; ++k)
                counter[k] ^= static_cast<std::uint8_t>(k >= 8 ? j >> (8 * (15 - k)) : 0);
            const Block more = cipher_->encrypt(counter);
            std::copy(more.begin(), more.end(), s.begin() + static_cast<std::ptrdiff_t>(16 * j));
        }
        check(BN_bin2bn(s.data(), static_cast<int>(d), y.get()) != nullptr);
        const std::size_t m = i % 2 == 0 ? u : v;
        const BIGNUM* modulus = m == u ? radix_u.get() : radix_v.get();
        read_numerals(changed, radix, number.get());
        check(encrypting ? BN_mod_add(c.get(), number.get(), y.get(), modulus, context.get())
                         : BN_mod_sub(c.get(), number.get(), y.get(), modulus, context.get()));
        // The changed half becomes the hashed one's successor: C takes the place of the half that was not hashed,
        // and the halves swap.
        changed.resize(m);
        write_numerals(c.get(), radix, changed);
        std::swap(a, bb);
    }
    // After ten swaps the halves are back in their places.
    std::copy(a.begin(), a.end(), out.begin());
    std::copy(bb.begin(), bb.end(), out.begin() + static_cast<std::ptrdiff_t>(a.size()));
}

}  // namespace idcodec::crypt
