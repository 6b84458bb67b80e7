// FF1 format-preserving encryption (NIST SP 800-38G Rev. 1) over AES from OpenSSL's libcrypto: a numeral string
// in radix 2 ... 65536 is encrypted to another of the same length and radix.
#pragma once
#include "core/common/no_postgres.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace idcodec::crypt {

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

    // Throws Error(invalid_parameter) unless numeral strings of `length` in `radix` are a domain FF1 accepts.
    static void check_domain(std::uint32_t radix, std::size_t length);

private:
    struct Cipher;
    void run(std::span<const std::uint32_t> in, std::uint32_t radix, std::span<const std::uint8_t> tweak,
             std::span<std::uint32_t> out, bool encrypting) const;
    template <class Halves>
    void rounds(const Halves& halves, std::span<const std::uint32_t> in, std::uint32_t radix,
                std::span<const std::uint8_t> tweak, std::span<std::uint32_t> out, bool encrypting) const;

    std::unique_ptr<Cipher> cipher_;
};

}  // namespace idcodec::crypt
