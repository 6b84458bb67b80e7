-- idcodec 0.1.0: hashids
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
