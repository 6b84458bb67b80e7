// FF1 format-preserving encryption (NIST SP 800-38G Rev. 1) over AES from OpenSSL's libcrypto: a numeral string
// in radix 2 ... 65536 is encrypted to another of the same length and radix.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace idcodec::crypt {

// AES with one key, in an OpenSSL cipher context (defined with FF1's rounds).
class Aes;

// Not for use from two threads at once: encryption runs in the object's one OpenSSL cipher context.
class Ff1 {
public:
    static constexpr std::uint32_t min_radix = 2;
    static constexpr std::uint32_t max_radix = 65536;
    // NIST's smallest domain: radix^length must reach this.
    static constexpr std::uint64_t min_domain = 1'000'000;
    // Longer numeral strings and tweaks are refused (the standard allows up to 2^32): a call's work grows with the
    // square of the length and cannot be interrupted, so these keep it to milliseconds, far beyond any identifier.
    static constexpr std::size_t max_length = 1024;
    static constexpr std::size_t max_tweak_bytes = 4096;

    // An AES-128, -192 or -256 key (16, 24 or 32 bytes); throws Error(invalid_parameter) for another length. The
    // key is held only inside OpenSSL's cipher context, which erases it when the object is destroyed.
    explicit Ff1(std::span<const std::uint8_t> key);
    ~Ff1();
    Ff1(Ff1&&) noexcept;
    Ff1& operator=(Ff1&&) noexcept;

    // Throws Error(invalid_parameter) for a radix outside 2 ... 65536, a length below NIST's minimum domain or above
    // max_length, a tweak above max_tweak_bytes, or a numeral not below the radix. `out` has the length of `in`.
    void encrypt(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
                 std::span<std::uint32_t> out) const;
    void decrypt(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
                 std::span<std::uint32_t> out) const;

    // A numeral string of `length` numerals given by the values of its halves: `first` is the number its first
    // length / 2 (rounded down) numerals spell, `second` the rest's. Encrypted IDs take this form: no numeral is
    // written, nor read.
    struct Halves {
        std::uint64_t first, second;
        bool operator==(const Halves&) const = default;
    };

    // Strings of `length` numerals in `radix` whose halves' values stay below 2^64, prepared once (radix^u and
    // radix^v), so that calls on them repeat no checks and no powers.
    class HalvesDomain {
    public:
        std::uint32_t radix() const noexcept { return radix_; }
        std::size_t length() const noexcept { return length_; }
        // radix^(length / 2) and radix^(length - length / 2): each half is below its limit.
        Halves limits() const noexcept { return limits_; }

    private:
        friend class Ff1;
        HalvesDomain(std::uint32_t radix, std::size_t length, Halves limits)
            : radix_(radix), length_(length), limits_(limits) {}
        std::uint32_t radix_;
        std::size_t length_;
        Halves limits_;
    };

    // Throws Error(invalid_parameter) for a domain FF1 refuses (check_domain); nothing when its halves do not fit.
    static std::optional<HalvesDomain> halves_domain(std::uint32_t radix, std::size_t length);

    // Throws as the numeral forms do for the tweak, and Error(invalid_parameter) for a half not below its limit.
    Halves encrypt(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak) const;
    Halves decrypt(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak) const;

    // Throws Error(invalid_parameter) unless numeral strings of `length` in `radix` are a domain FF1 accepts.
    static void check_domain(std::uint32_t radix, std::size_t length);

private:
    void run(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
             std::span<std::uint32_t> out, bool encrypting) const;
    Halves run(Halves in, const HalvesDomain& domain, std::span<const std::uint8_t> tweak, bool encrypting) const;

    std::unique_ptr<Aes> aes_;
};

}  // namespace idcodec::crypt
