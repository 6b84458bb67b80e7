// libFuzzer target: FF1 round trips (decrypting what was encrypted gives it back, for every radix, length and
// tweak, and the ciphertext's numerals stay below the radix), and encrypted-ID decoding of arbitrary codes under
// arbitrary alphabets (a code that decodes is the one encode gives for its number), and text of an alphabet
// through encryption and back.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.hpp"
#include "core/crypt/alphabet_cipher.hpp"
#include "core/crypt/ff1.hpp"

#include "fuzz_input.hpp"

using idcodec::fuzz::take_field;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    static constexpr std::size_t key_sizes[] = {16, 24, 32};
    const std::vector<std::uint8_t> key(key_sizes[data[0] % 3], data[1]);
    const std::uint32_t radix = 2 + (std::uint32_t{data[2]} << 8 | data[3]) % 65535;  // 2 ... 65536
    std::string_view input(reinterpret_cast<const char*>(data + 4), size - 4);
    const std::string_view tweak_text = take_field(input);
    const std::vector<std::uint8_t> tweak(tweak_text.begin(), tweak_text.end());
    const std::string_view alphabet = take_field(input);

    try {
        const idcodec::crypt::Ff1 ff1(key);
        // The rest as numerals, two bytes each, taken modulo the radix.
        std::vector<std::uint32_t> plain;
        for (std::size_t k = 0; k + 1 < input.size() && plain.size() < 64; k += 2)
            plain.push_back(
                (std::uint32_t{static_cast<std::uint8_t>(input[k])} << 8 | static_cast<std::uint8_t>(input[k + 1])) %
                radix);
        std::vector<std::uint32_t> cipher(plain.size()), back(plain.size());
        ff1.encrypt(plain, radix, tweak, cipher);  // throws for a domain FF1 refuses
        for (const std::uint32_t numeral : cipher)
            if (numeral >= radix) __builtin_trap();
        ff1.decrypt(cipher, radix, tweak, back);
        if (back != plain) __builtin_trap();
    } catch (const idcodec::Error&) {
        // a domain FF1 refuses is reported, not a crash
    }

    try {
        const idcodec::crypt::AlphabetCipher ids(key, alphabet);
        const std::size_t length = 1 + data[1] % 40;
        if (const auto number = ids.decode_id(input, tweak, length)) {
            if (ids.encode_id(*number, tweak, length) != input) __builtin_trap();
        }
        // Text of the alphabet comes back from its encryption; the encryption is text of the alphabet too.
        if (const auto encrypted = ids.encrypt(input, tweak)) {
            if (ids.decrypt(*encrypted, tweak) != input) __builtin_trap();
        }
    } catch (const idcodec::Error&) {
        // a bad alphabet or a refused length is reported, not a crash
    }
    return 0;
}
