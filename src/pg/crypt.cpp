// SQL functions of FF1 format-preserving encryption: text of an alphabet (ff1_encrypt, ff1_decrypt) and encrypted
// IDs (idcrypt_encode, idcrypt_decode), with a key given as bytes or by its name in the keyring.
#include <optional>

#include "core/crypt/alphabet_cipher.hpp"
#include "core/crypt/keyring.hpp"

#include "pg/call_site.hpp"
#include "pg/entry.hpp"
#include "pg/keyring.hpp"
#include "pg/values.hpp"

using idcodec::Error;
using idcodec::ErrorKind;
using idcodec::StopToken;
using idcodec::crypt::AlphabetCipher;
using namespace idcodec::pg;

namespace {

using CipherSite = CallSite<AlphabetCipher>;

// How the key argument gives the key.
enum class KeyForm { bytes, name };

// The call site's cipher for the key (argument `key_argument`) and alphabet (`alphabet_argument`), prepared once
// per key and alphabet. A key's bytes are among the settings of the cache (which erases them when it lets an entry
// go); a named key is cached under its name and the keyring's generation, and its bytes live only in the cipher.
const AlphabetCipher& cipher_argument(FunctionCallInfo fcinfo, CipherSite& site, int key_argument,
                                      int alphabet_argument, KeyForm form) {
    if (site.settled) return *site.config;
    const text* alphabet = PG_GETARG_TEXT_PP(alphabet_argument);
    const struct varlena* key = PG_GETARG_VARLENA_PP(key_argument);
    const std::uint64_t generation = form == KeyForm::name ? keyring_generation() : 0;
    const std::string_view settings[] = {form == KeyForm::name ? "name" : "bytes", key_part(generation), raw_bytes(key),
                                         raw_bytes(alphabet)};
    if (!site.matches(settings)) {
        const std::string_view alphabet_utf8 = utf8_of(alphabet);
        const std::string_view keyring = form == KeyForm::name ? keyring_text() : std::string_view();
        const bool fixed = fixed_arguments(fcinfo, {key_argument, alphabet_argument});
        site.bind(settings, fixed, [&](StopToken) {
            if (form == KeyForm::bytes) return AlphabetCipher(bytes_of(key), alphabet_utf8);
            // A name is ASCII in every server encoding. Neither it nor the keyring is quoted in a message: a key
            // passed where its name belongs (an untyped literal in second place is taken as a name) stays out of
            // the logs.
            const std::string_view name = raw_bytes(key);
            if (!idcodec::crypt::is_key_name(name))
                throw Error(ErrorKind::invalid_parameter,
                            "key_name must be 1 to 63 ASCII letters, digits and underscores (a key's bytes are "
                            "passed as bytea)");
            const std::optional<idcodec::SecretBytes> named = idcodec::crypt::key_of(keyring, name);
            if (!named)
                throw Error(ErrorKind::undefined_object, "the idcodec keyring file has no key of the name given");
            return AlphabetCipher(named->bytes(), alphabet_utf8);
        });
    }
    return *site.config;
}

// ff1_encrypt and ff1_decrypt: (text, key bytea, alphabet text, tweak bytea) → text.
Datum ff1_text(FunctionCallInfo fcinfo, bool encrypting) {
    const std::string_view input = utf8_of(PG_GETARG_TEXT_PP(0));
    const std::span<const std::uint8_t> tweak = bytes_of(PG_GETARG_BYTEA_PP(3));
    CipherSite& site = call_site<CipherSite>(fcinfo);
    const AlphabetCipher& cipher = cipher_argument(fcinfo, site, 1, 2, KeyForm::bytes);
    bool in_alphabet = false;
    guarded([&](StopToken) {
        std::optional<std::string> output = encrypting ? cipher.encrypt(input, tweak) : cipher.decrypt(input, tweak);
        in_alphabet = output.has_value();
        if (output) site.text = std::move(*output);
    });
    // The text is never quoted: it is what the caller encrypts (a card number, say).
    if (!in_alphabet)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("%s: the text has a character outside the alphabet",
                               encrypting ? "ff1_encrypt" : "ff1_decrypt")));
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

// The ID functions' arguments after the key: tweak text, length int (NULL: the alphabet's default length),
// alphabet text. They are not STRICT, for the NULL length; a NULL anywhere else gives NULL.
struct IdArguments {
    const AlphabetCipher* cipher;
    std::span<const std::uint8_t> tweak;
    std::size_t length;
};

std::optional<IdArguments> id_arguments(FunctionCallInfo fcinfo, CipherSite& site, KeyForm form) {
    for (const int argument : {0, 1, 2, 4})
        if (PG_ARGISNULL(argument)) return std::nullopt;
    const std::string_view tweak = utf8_of(PG_GETARG_TEXT_PP(2));
    const AlphabetCipher& cipher = cipher_argument(fcinfo, site, 1, 4, form);
    std::size_t length = 0;
    if (PG_ARGISNULL(3)) {
        length = cipher.default_id_length();
    } else {
        const int32 given = PG_GETARG_INT32(3);
        if (given < 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("idcrypt length must not be negative (got %d)", given)));
        length = static_cast<std::size_t>(given);
    }
    return IdArguments{&cipher, {reinterpret_cast<const std::uint8_t*>(tweak.data()), tweak.size()}, length};
}

// idcrypt_encode: (number bigint, key, tweak text, length int, alphabet text) → text.
Datum id_encode(FunctionCallInfo fcinfo, KeyForm form) {
    CipherSite& site = call_site<CipherSite>(fcinfo);
    const std::optional<IdArguments> call = id_arguments(fcinfo, site, form);
    if (!call) PG_RETURN_NULL();
    const std::uint64_t number = non_negative_bigint(fcinfo, 0);
    guarded([&](StopToken) { call->cipher->encode_id(number, call->tweak, call->length, site.text); });
    PG_RETURN_TEXT_P(text_from_utf8(site.text));
}

// idcrypt_decode: (code text, key, tweak text, length int, alphabet text) → bigint; NULL for a code not made with
// this key, tweak, length and alphabet.
Datum id_decode(FunctionCallInfo fcinfo, KeyForm form) {
    CipherSite& site = call_site<CipherSite>(fcinfo);
    const std::optional<IdArguments> call = id_arguments(fcinfo, site, form);
    if (!call) PG_RETURN_NULL();
    const std::optional<std::string_view> code = id_argument(fcinfo, 0);
    std::optional<std::uint64_t> number;
    guarded([&](StopToken) {
        // the length is checked even for a code that cannot be read, as for any other
        const std::string_view readable = code ? *code : std::string_view();
        number = call->cipher->decode_id(readable, call->tweak, call->length);
        if (!code) number.reset();
    });
    return bigint_or_null(fcinfo, number);
}

}  // namespace

// ff1_encrypt(plaintext text, key bytea, alphabet text, tweak bytea) → text
IDCODEC_SQL_FUNCTION(idcodec_ff1_encrypt) { return ff1_text(fcinfo, true); }

// ff1_decrypt(ciphertext text, key bytea, alphabet text, tweak bytea) → text
IDCODEC_SQL_FUNCTION(idcodec_ff1_decrypt) { return ff1_text(fcinfo, false); }

// idcrypt_encode(number bigint, key bytea, tweak text, length int, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_idcrypt_encode) { return id_encode(fcinfo, KeyForm::bytes); }

// idcrypt_decode(code text, key bytea, tweak text, length int, alphabet text) → bigint; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_idcrypt_decode) { return id_decode(fcinfo, KeyForm::bytes); }

// idcrypt_encode(number bigint, key_name text, tweak text, length int, alphabet text) → text
IDCODEC_SQL_FUNCTION(idcodec_idcrypt_encode_named) { return id_encode(fcinfo, KeyForm::name); }

// idcrypt_decode(code text, key_name text, tweak text, length int, alphabet text) → bigint; NULL when malformed
IDCODEC_SQL_FUNCTION(idcodec_idcrypt_decode_named) { return id_decode(fcinfo, KeyForm::name); }
