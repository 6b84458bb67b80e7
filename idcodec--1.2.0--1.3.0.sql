-- idcodec 1.3.0: time-ordered public IDs. TypeID and ULID text of a UUID and back (typeid_encode, typeid_decode,
-- typeid_prefix, ulid_encode, ulid_decode, ulid_timestamp), and version 7 UUIDs, TypeIDs and ULIDs generated
-- (uuid_generate_v7, typeid_generate, ulid_generate). Nothing that existed changes.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.3.0'" to load this file. \quit

-- ---- time-ordered public IDs: TypeID, ULID, version 7 UUIDs

CREATE FUNCTION typeid_encode(prefix text, id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_typeid_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_encode(text, uuid) IS
'TypeID of a UUID (TypeID specification v0.3, as typeid-js 1.2.0): prefix_ and 26 lowercase Crockford base32 digits; the prefix is at most 63 lowercase letters and underscores, starting and ending with a letter, or empty';

CREATE FUNCTION typeid_decode(typeid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_typeid_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_decode(text) IS
'the UUID of a TypeID; NULL for anything the TypeID specification rejects';

CREATE FUNCTION typeid_prefix(typeid text)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_prefix(text) IS
'the type prefix of a TypeID ('''' when it has none); NULL for anything the TypeID specification rejects';

CREATE FUNCTION ulid_encode(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_ulid_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_encode(uuid) IS
'the ULID of a UUID''s 128 bits: 26 uppercase Crockford base32 digits, as ulid 3.0.2';

CREATE FUNCTION ulid_decode(ulid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_ulid_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_decode(text) IS
'the UUID of a ULID, read in either case with Crockford''s aliases (i, l as 1, o as 0); NULL for anything else or a value above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ';

CREATE FUNCTION ulid_timestamp(ulid text)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_ulid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_timestamp(text) IS
'the millisecond time in a ULID''s first 48 bits; NULL for anything ulid_decode rejects';

-- Generation is VOLATILE: each call gives a new value.
CREATE FUNCTION uuid_generate_v7()
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_uuid_generate_v7'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7() IS
'a new version 7 UUID (RFC 9562): millisecond time, 12 bits of its fraction, 62 random bits; strictly increasing within a backend';

CREATE FUNCTION typeid_generate(prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_typeid_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_generate(text) IS
'a new TypeID of a version 7 UUID (uuid_generate_v7)';

CREATE FUNCTION ulid_generate()
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_ulid_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_generate() IS
'a new ULID of a version 7 UUID (uuid_generate_v7): its time is the UUID''s';
