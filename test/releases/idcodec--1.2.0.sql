-- idcodec 1.2.0: the complete install script. Short public IDs (hashids, sqids, base62), compact ObjectIds and
-- UUIDs, short-URL codes, rolling hashes and content-defined chunking, and encrypted IDs (FF1). Since 1.0.0, every
-- function gives the same output for the same inputs in every later version.
\echo Use "CREATE EXTENSION idcodec" to load this file. \quit

-- PostgreSQL lets CREATE EXTENSION name any schema, and this script runs as a superuser (the extension is trusted):
-- it creates nothing where the role installing it could not create objects itself (pg_catalog, another's schema).
DO $schema$
BEGIN
    IF NOT pg_catalog.has_schema_privilege(
               (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec'),
               pg_catalog.current_schema(), 'CREATE') THEN
        RAISE EXCEPTION 'permission denied for schema %', pg_catalog.current_schema()
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Install idcodec into a schema where you may create objects.';
    END IF;
END
$schema$;

-- ---- hashids

CREATE FUNCTION hashids_encode(number bigint, salt text DEFAULT '', min_length int DEFAULT 0,
                               alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_encode(bigint, text, int, text) IS
'hashid of a non-negative number, byte-exact with hashids.js 2.3.0';

CREATE FUNCTION hashids_encode(numbers bigint[], salt text DEFAULT '', min_length int DEFAULT 0,
                               alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_encode(bigint[], text, int, text) IS
'hashid of a list of non-negative numbers (an empty array gives ''''), byte-exact with hashids.js 2.3.0';

CREATE FUNCTION hashids_decode(hashid text, salt text DEFAULT '', min_length int DEFAULT 0,
                               alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_hashids_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_decode(text, text, int, text) IS
'numbers of a hashid; ''{}'' unless the hashid is exactly what hashids_encode gives with these settings';

CREATE FUNCTION hashids_decode_one(hashid text, salt text DEFAULT '', min_length int DEFAULT 0,
                                   alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_hashids_decode_one'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_decode_one(text, text, int, text) IS
'the single number of a hashid; NULL for an invalid hashid or one holding several numbers';

CREATE FUNCTION hashids_encode_hex(hex text, salt text DEFAULT '', min_length int DEFAULT 0,
                                   alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_encode_hex(text, text, int, text) IS
'hashid of a hexadecimal string (hashids.js encodeHex: 12-digit groups)';

CREATE FUNCTION hashids_decode_hex(hashid text, salt text DEFAULT '', min_length int DEFAULT 0,
                                   alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_decode_hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hashids_decode_hex(text, text, int, text) IS
'lowercase hexadecimal string of a hashid made by hashids_encode_hex; NULL for an invalid hashid';

-- ---- sqids

-- Not STRICT: a NULL blocklist means the spec's default list; any other NULL argument gives NULL.
CREATE FUNCTION sqids_encode(numbers bigint[],
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length int DEFAULT 0, blocklist text[] DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_sqids_encode_array'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint[], text, int, text[]) IS
'sqid of a list of non-negative numbers (Sqids spec, as sqids 0.3.0); NULL blocklist = the default 560 words';

CREATE FUNCTION sqids_encode(number bigint,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length int DEFAULT 0, blocklist text[] DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_sqids_encode'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION sqids_encode(bigint, text, int, text[]) IS
'sqid of a non-negative number (Sqids spec, as sqids 0.3.0); NULL blocklist = the default 560 words';

CREATE FUNCTION sqids_decode(id text,
                             alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
                             min_length int DEFAULT 0, blocklist text[] DEFAULT NULL, canonical boolean DEFAULT false)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_sqids_decode'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION sqids_decode(text, text, int, text[], boolean) IS
'numbers of a sqid as the spec decodes them; ''{}'' for foreign characters or numbers beyond bigint; with canonical => true also ''{}'' unless sqids_encode gives back exactly this id';

-- ---- compact identifiers and short-URL codes

CREATE FUNCTION objectid_compress(objectid text,
                                  alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_objectid_compress'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_compress(text, text) IS
'MongoDB ObjectId (24 hex digits, either case) as 16 characters of a 64-character alphabet, 6 bits each';

CREATE FUNCTION objectid_decompress(compressed text,
                                    alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_objectid_decompress'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_decompress(text, text) IS
'the 24 lowercase hex digits of a compressed ObjectId; NULL for malformed input';

CREATE FUNCTION objectid_timestamp(objectid text)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_objectid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION objectid_timestamp(text) IS
'creation time of a MongoDB ObjectId (its first 4 bytes, seconds since 1970)';

CREATE FUNCTION uuid_compress(u uuid,
                              alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_uuid_compress'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_compress(uuid, text) IS
'a UUID as 22 characters of a 64-character alphabet (base64url without padding when given the RFC 4648 alphabet)';

CREATE FUNCTION uuid_decompress(compressed text,
                                alphabet text DEFAULT '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_')
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_uuid_decompress'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_decompress(text, text) IS
'the UUID of a compressed UUID; NULL for malformed input';

CREATE FUNCTION base62_encode(number bigint,
                              alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_base62_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base62_encode(bigint, text) IS
'a non-negative number in base N, N being the alphabet''s length (at least 2, no repeated character)';

CREATE FUNCTION base62_decode(code text,
                              alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_base62_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base62_decode(text, text) IS
'the number of a base-N code; NULL for an empty code, a character outside the alphabet or a value beyond bigint';

CREATE FUNCTION alphabet_shuffle(alphabet text, key text)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_alphabet_shuffle'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION alphabet_shuffle(text, text) IS
'the alphabet permuted by a key with hashids'' consistent shuffle: a keyed alphabet for base62_encode';

CREATE FUNCTION base62_mixup(number bigint,
                             alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_base62_mixup'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base62_mixup(bigint, text) IS
'a short-URL code: the base-N code of the number rotated left by the sum of its code points modulo its length';

CREATE FUNCTION base62_unmixup(code text,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_base62_unmixup'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION base62_unmixup(text, text) IS
'the number of a base62_mixup code; NULL for malformed input';

CREATE FUNCTION shortcode_candidates(url text, length int DEFAULT 8, attempt int DEFAULT 0,
                                     alphabet text DEFAULT 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')
RETURNS text[]
AS 'MODULE_PATHNAME', 'idcodec_shortcode_candidates'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION shortcode_candidates(text, int, int, text) IS
'four short-URL codes from the MD5 of the URL (attempt 0) or of URL || NUL || attempt (attempt > 0), for collision retries';

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

-- ---- rolling hashes, Rabin-Karp search, content-defined chunking and winnowing

CREATE FUNCTION rolling_hash(data bytea, window_size int, algorithm text DEFAULT 'rabin_karp', seed bigint DEFAULT 0)
RETURNS TABLE(pos bigint, hash bigint)
AS 'MODULE_PATHNAME', 'idcodec_rolling_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION rolling_hash(bytea, int, text, bigint) IS
'the hash of every window of window_size bytes (pos: 0-based offset of its first byte); algorithms rabin_karp, rabin, buzhash, gear, moving_sum';

CREATE FUNCTION rolling_hash(data text, window_size int, algorithm text DEFAULT 'rabin_karp', seed bigint DEFAULT 0)
RETURNS TABLE(pos bigint, hash bigint)
AS 'MODULE_PATHNAME', 'idcodec_rolling_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION rolling_hash(text, int, text, bigint) IS
'the hash of every window of window_size bytes of the text (pos: 0-based byte offset)';

CREATE FUNCTION rabin_karp_find(haystack text, needle text)
RETURNS SETOF int
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(text, text) IS
'1-based character positions of every occurrence of needle, overlapping ones included (as strpos counts)';

CREATE FUNCTION rabin_karp_find(haystack text, needles text[])
RETURNS TABLE(needle int, pos int)
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_many'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(text, text[]) IS
'every occurrence of each needle (needle: 1-based index in the array) at 1-based character positions';

CREATE FUNCTION rabin_karp_find(haystack bytea, needle bytea)
RETURNS SETOF int
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(bytea, bytea) IS
'1-based byte positions of every occurrence of needle, overlapping ones included';

-- Not STRICT: window_size and digest default to NULL; NULL data or settings give no rows.
CREATE FUNCTION cdc_chunks(data bytea, algorithm text DEFAULT 'fastcdc', min_size int DEFAULT 4096,
                           avg_size int DEFAULT 16384, max_size int DEFAULT 65536, seed bigint DEFAULT 0,
                           window_size int DEFAULT NULL, digest text DEFAULT NULL, normalization int DEFAULT 1)
RETURNS TABLE(start bigint, length int, cut_hash bigint, digest bytea)
AS 'MODULE_PATHNAME', 'idcodec_cdc_chunks'
LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION cdc_chunks(bytea, text, int, int, int, bigint, int, text, int) IS
'content-defined chunks (start is 0-based): fastcdc (fastcdc-rs 4.0.1 v2020, with normalization level 0-3 and seed), fastcdc2016, ronomon, rabin (restic), buzhash (borg 1.2), moving_sum (gzip --rsyncable); digest => ''sha256'' fills the digest column';

CREATE FUNCTION winnow(data text, k int, w int)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_winnow'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION winnow(text, int, int) IS
'winnowing fingerprints (Schleimer, Wilkerson, Aiken 2003): Rabin-Karp hashes of character k-grams, rightmost minimum of each window of w';
