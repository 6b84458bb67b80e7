-- idcodec 0.2.0: sqids
\echo Use "ALTER EXTENSION idcodec UPDATE TO '0.2.0'" to load this file. \quit

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
