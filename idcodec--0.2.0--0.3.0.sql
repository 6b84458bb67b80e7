-- idcodec 0.3.0: compact identifiers and short-URL codes (seeds 001-003)
\echo Use "ALTER EXTENSION idcodec UPDATE TO '0.3.0'" to load this file. \quit

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
'seed 001: the base-N code rotated left by the sum of its code points modulo its length';

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
'seed 002, fixed: four short codes from the MD5 of the URL (attempt 0) or of URL || NUL || attempt (attempt > 0)';
