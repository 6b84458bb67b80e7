-- idcodec 1.2.0: encrypted IDs. FF1 format-preserving encryption of text over an alphabet (ff1_encrypt,
-- ff1_decrypt) and encrypted IDs (idcrypt_encode, idcrypt_decode) with a key given as bytes or by its name in the
-- superuser-only keyring. Nothing that existed changes.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.2.0'" to load this file. \quit

-- ---- encrypted IDs: FF1 format-preserving encryption (NIST SP 800-38G Rev. 1, AES from OpenSSL)

CREATE FUNCTION ff1_encrypt(plaintext text, key bytea, alphabet text, tweak bytea DEFAULT '')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_ff1_encrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ff1_encrypt(text, bytea, text, bytea) IS
'FF1 (AES-128/192/256 by the key''s 16/24/32 bytes) of text written in the alphabet (radix = its number of characters, 2 to 65536): text of the same length and alphabet';

CREATE FUNCTION ff1_decrypt(ciphertext text, key bytea, alphabet text, tweak bytea DEFAULT '')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_ff1_decrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ff1_decrypt(text, bytea, text, bytea) IS
'the inverse of ff1_encrypt with the same key, alphabet and tweak';

-- Not STRICT: length defaults to NULL (the alphabet's default length); a NULL elsewhere gives NULL.
CREATE FUNCTION idcrypt_encode(number bigint, key bytea, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_encode'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION idcrypt_encode(bigint, bytea, text, int, text) IS
'encrypted ID: the number''s digits in the alphabet''s radix, zero-padded to length (default: shortest for which a forged code decodes with probability below 1e-6, 14 for 62 characters), encrypted with FF1 under the key and tweak';

CREATE FUNCTION idcrypt_decode(code text, key bytea, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_decode'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION idcrypt_decode(text, bytea, text, int, text) IS
'the number of an encrypted ID; NULL for a code not made with this key, tweak, length and alphabet';

-- The keyring forms: IMMUTABLE on the promise that a name's key never changes once used (rotating a key means a new
-- name); a name missing from idcodec.keyring is an error. PARALLEL RESTRICTED: a parallel worker cannot read the
-- keyring (a leader passes on settings as SHOW shows them, and the keyring shows only a constant).
CREATE FUNCTION idcrypt_encode(number bigint, key_name text, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_encode_named'
LANGUAGE C IMMUTABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idcrypt_encode(bigint, text, text, int, text) IS
'encrypted ID under the key of that name in idcodec.keyring (superuser-only setting, needs shared_preload_libraries)';

CREATE FUNCTION idcrypt_decode(code text, key_name text, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_decode_named'
LANGUAGE C IMMUTABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idcrypt_decode(text, text, text, int, text) IS
'the number of an encrypted ID made under the key of that name in idcodec.keyring; NULL for a code not made with it';
