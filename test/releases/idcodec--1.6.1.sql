-- idcodec 1.6.1: the complete install script. Short public IDs (hashids, sqids, base62), compact ObjectIds and
-- UUIDs, short-URL codes, rolling hashes and content-defined chunking, encrypted IDs (FF1), time-ordered IDs
-- (TypeID, ULID, version 7 UUIDs, and the ulid and typeid types) and snowflake IDs. Since 1.0.0, every function
-- gives the same output for the same inputs in every later version.
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

-- ---- native types of time-ordered IDs (1.5.0): ulid and typeid

-- ulid: a UUID's 16 bytes shown as a ULID. Its binary form, order, hashing and sort support (with abbreviated keys)
-- are uuid's own built-in functions, declared here for ulid: the two types hold the same bytes in the same order.
CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring)
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_ulid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_in(cstring) IS
'text input of ulid: a ULID (either case, i and l as 1, o as 0) or a UUID''s standard text for the same bytes';

CREATE FUNCTION ulid_out(ulid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'idcodec_ulid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_out(ulid) IS
'text output of ulid: the canonical ULID, 26 uppercase Crockford base32 digits';

CREATE FUNCTION ulid_recv(internal)
RETURNS ulid
AS 'uuid_recv'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_recv(internal) IS
'binary input of ulid: 16 bytes, as uuid''s';

CREATE FUNCTION ulid_send(ulid)
RETURNS bytea
AS 'uuid_send'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_send(ulid) IS
'binary output of ulid: 16 bytes, as uuid''s';

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain,
    CATEGORY = 'U'
);
COMMENT ON TYPE ulid IS
'a ULID: 16 bytes (the same as the uuid it stands for), shown as 26 Crockford base32 digits, ordered by time';

CREATE FUNCTION ulid_eq(ulid, ulid)
RETURNS boolean
AS 'uuid_eq'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS
'ulid = ulid';

CREATE FUNCTION ulid_ne(ulid, ulid)
RETURNS boolean
AS 'uuid_ne'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS
'ulid <> ulid';

CREATE FUNCTION ulid_lt(ulid, ulid)
RETURNS boolean
AS 'uuid_lt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS
'ulid < ulid';

CREATE FUNCTION ulid_le(ulid, ulid)
RETURNS boolean
AS 'uuid_le'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS
'ulid <= ulid';

CREATE FUNCTION ulid_gt(ulid, ulid)
RETURNS boolean
AS 'uuid_gt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS
'ulid > ulid';

CREATE FUNCTION ulid_ge(ulid, ulid)
RETURNS boolean
AS 'uuid_ge'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS
'ulid >= ulid';

CREATE FUNCTION ulid_cmp(ulid, ulid)
RETURNS integer
AS 'uuid_cmp'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS
'the order of two ulids: -1, 0 or 1 (B-tree support)';

CREATE FUNCTION ulid_sortsupport(internal)
RETURNS void
AS 'uuid_sortsupport'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_sortsupport(internal) IS
'sort support of ulid, with abbreviated keys (B-tree support)';

CREATE FUNCTION ulid_hash(ulid)
RETURNS integer
AS 'uuid_hash'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_hash(ulid) IS
'the hash of a ulid, equal to its uuid''s (hash support)';

CREATE FUNCTION ulid_hash_extended(ulid, bigint)
RETURNS bigint
AS 'uuid_hash_extended'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_hash_extended(ulid, bigint) IS
'the seeded 64-bit hash of a ulid, equal to its uuid''s (hash partitioning)';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR CLASS ulid_ops
DEFAULT FOR TYPE ulid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(internal),
    -- a ulid equals another only when their bytes do: indexes deduplicate
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS ulid_hash_ops
DEFAULT FOR TYPE ulid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, bigint);

-- BRIN: minmax by default (ULIDs made over time come in order, so block ranges stay narrow), bloom for lookups of
-- single values in tables not loaded in time order.
CREATE OPERATOR CLASS ulid_minmax_ops
DEFAULT FOR TYPE ulid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

CREATE OPERATOR CLASS ulid_bloom_ops
FOR TYPE ulid USING brin AS
    OPERATOR 1 =,
    FUNCTION 1 pg_catalog.brin_bloom_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_bloom_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_bloom_consistent(internal, internal, internal, integer),
    FUNCTION 4 pg_catalog.brin_bloom_union(internal, internal, internal),
    FUNCTION 5 pg_catalog.brin_bloom_options(internal),
    FUNCTION 11 ulid_hash(ulid),
STORAGE bytea;

-- ulid compared with uuid, either way round, by exact operators (uuid's functions again) in ulid's B-tree, hash and
-- BRIN families: a uuid parameter or bound (a driver's, uuid_v7_least's) uses ulid's indexes and prunes its hash
-- partitions, and the two hash-join. Not MERGES, as in 1.5.0: an update cannot add it on every major (ALTER OPERATOR
-- sets it from 17 on), and a fresh install must have the catalog of an updated one.

CREATE FUNCTION ulid_uuid_eq(ulid, uuid)
RETURNS boolean
AS 'uuid_eq'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_eq(ulid, uuid) IS
'ulid = uuid';

CREATE FUNCTION ulid_uuid_ne(ulid, uuid)
RETURNS boolean
AS 'uuid_ne'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_ne(ulid, uuid) IS
'ulid <> uuid';

CREATE FUNCTION ulid_uuid_lt(ulid, uuid)
RETURNS boolean
AS 'uuid_lt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_lt(ulid, uuid) IS
'ulid < uuid';

CREATE FUNCTION ulid_uuid_le(ulid, uuid)
RETURNS boolean
AS 'uuid_le'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_le(ulid, uuid) IS
'ulid <= uuid';

CREATE FUNCTION ulid_uuid_gt(ulid, uuid)
RETURNS boolean
AS 'uuid_gt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_gt(ulid, uuid) IS
'ulid > uuid';

CREATE FUNCTION ulid_uuid_ge(ulid, uuid)
RETURNS boolean
AS 'uuid_ge'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_ge(ulid, uuid) IS
'ulid >= uuid';

CREATE FUNCTION ulid_uuid_cmp(ulid, uuid)
RETURNS integer
AS 'uuid_cmp'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_cmp(ulid, uuid) IS
'the order of a ulid and a uuid: -1, 0 or 1 (B-tree support)';

CREATE FUNCTION uuid_ulid_eq(uuid, ulid)
RETURNS boolean
AS 'uuid_eq'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_eq(uuid, ulid) IS
'uuid = ulid';

CREATE FUNCTION uuid_ulid_ne(uuid, ulid)
RETURNS boolean
AS 'uuid_ne'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_ne(uuid, ulid) IS
'uuid <> ulid';

CREATE FUNCTION uuid_ulid_lt(uuid, ulid)
RETURNS boolean
AS 'uuid_lt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_lt(uuid, ulid) IS
'uuid < ulid';

CREATE FUNCTION uuid_ulid_le(uuid, ulid)
RETURNS boolean
AS 'uuid_le'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_le(uuid, ulid) IS
'uuid <= ulid';

CREATE FUNCTION uuid_ulid_gt(uuid, ulid)
RETURNS boolean
AS 'uuid_gt'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_gt(uuid, ulid) IS
'uuid > ulid';

CREATE FUNCTION uuid_ulid_ge(uuid, ulid)
RETURNS boolean
AS 'uuid_ge'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_ge(uuid, ulid) IS
'uuid >= ulid';

CREATE FUNCTION uuid_ulid_cmp(uuid, ulid)
RETURNS integer
AS 'uuid_cmp'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_cmp(uuid, ulid) IS
'the order of a uuid and a ulid: -1, 0 or 1 (B-tree support)';
CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR = (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR <> (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

ALTER OPERATOR FAMILY ulid_ops USING btree ADD
    OPERATOR 1 < (ulid, uuid),
    OPERATOR 2 <= (ulid, uuid),
    OPERATOR 3 = (ulid, uuid),
    OPERATOR 4 >= (ulid, uuid),
    OPERATOR 5 > (ulid, uuid),
    OPERATOR 1 < (uuid, ulid),
    OPERATOR 2 <= (uuid, ulid),
    OPERATOR 3 = (uuid, ulid),
    OPERATOR 4 >= (uuid, ulid),
    OPERATOR 5 > (uuid, ulid),
    FUNCTION 1 (ulid, uuid) ulid_uuid_cmp(ulid, uuid),
    FUNCTION 1 (uuid, ulid) uuid_ulid_cmp(uuid, ulid),
    -- uuid with uuid, by uuid's own operators and functions: a family with two types needs every comparison among
    -- them, or the planner fails on IN lists and = ANY arrays that mix them (an index scan sorts the array by the
    -- family's order of its elements' type)
    OPERATOR 1 pg_catalog.< (uuid, uuid),
    OPERATOR 2 pg_catalog.<= (uuid, uuid),
    OPERATOR 3 pg_catalog.= (uuid, uuid),
    OPERATOR 4 pg_catalog.>= (uuid, uuid),
    OPERATOR 5 pg_catalog.> (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_cmp(uuid, uuid),
    FUNCTION 2 (uuid, uuid) pg_catalog.uuid_sortsupport(internal);

-- a uuid key is hashed as uuid hashes it: the same bytes, the same hash as a ulid's; uuid's own equality is in the
-- family too, which a hashed IN subquery of the two types needs
ALTER OPERATOR FAMILY ulid_hash_ops USING hash ADD
    OPERATOR 1 = (ulid, uuid),
    OPERATOR 1 = (uuid, ulid),
    OPERATOR 1 pg_catalog.= (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_hash(uuid),
    FUNCTION 2 (uuid, uuid) pg_catalog.uuid_hash_extended(uuid, bigint);

ALTER OPERATOR FAMILY ulid_minmax_ops USING brin ADD
    OPERATOR 1 < (ulid, uuid),
    OPERATOR 2 <= (ulid, uuid),
    OPERATOR 3 = (ulid, uuid),
    OPERATOR 4 >= (ulid, uuid),
    OPERATOR 5 > (ulid, uuid);

ALTER OPERATOR FAMILY ulid_bloom_ops USING brin ADD
    OPERATOR 1 = (ulid, uuid);

-- ulid to uuid is implicit and uuid to ulid only on assignment: a ulid goes wherever a uuid is taken (uuid's own
-- functions included), a uuid stored into a ulid column needs no cast, and with the exact operators above no
-- comparison of the two is ambiguous ("operator is not unique"). Both casts are free.
CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS IMPLICIT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION ulid_timestamp(id ulid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_ulid_type_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_timestamp(ulid) IS
'the millisecond time in a ULID''s first 48 bits (also the cast from ulid to timestamptz)';

CREATE FUNCTION ulid_least(at timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_ulid_least'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_least(timestamptz) IS
'the least ULID of the millisecond of a time (also the cast from timestamptz to ulid), for range scans';

CREATE FUNCTION ulid_greatest(at timestamptz)
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_ulid_greatest'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_greatest(timestamptz) IS
'the greatest ULID of the millisecond of a time, for range scans';

CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_timestamp(ulid);
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_least(timestamptz);

-- Generation is VOLATILE: each call gives a new value.
CREATE FUNCTION gen_ulid()
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_gen_ulid'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gen_ulid() IS
'a new ulid of a version 7 UUID (uuid_generate_v7): strictly increasing within a backend';

CREATE FUNCTION ulid_larger(ulid, ulid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_ulid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS
'the later of two ulids (the state of max)';

CREATE FUNCTION ulid_smaller(ulid, ulid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'idcodec_ulid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS
'the earlier of two ulids (the state of min)';

-- uuid has no min and max; ulid has, since "the latest row" is a common question of time-ordered keys. SORTOP
-- lets the planner answer them from a B-tree index.
CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(ulid) IS
'the greatest (latest) ulid';

CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller, SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(ulid) IS
'the least (earliest) ulid';

-- typeid: a TypeID's prefix and UUID, 1 + prefix length + 16 bytes on disk, ordered by prefix, then by UUID.
CREATE TYPE typeid;

CREATE FUNCTION typeid_in(cstring)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_typeid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_in(cstring) IS
'text input of typeid: a TypeID as the specification v0.3 defines it';

CREATE FUNCTION typeid_out(typeid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'idcodec_typeid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_out(typeid) IS
'text output of typeid: prefix_ and 26 lowercase Crockford base32 digits';

CREATE FUNCTION typeid_recv(internal)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_typeid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_recv(internal) IS
'binary input of typeid: the prefix''s bytes, then the UUID''s 16';

CREATE FUNCTION typeid_send(typeid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'idcodec_typeid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_send(typeid) IS
'binary output of typeid: the prefix''s bytes, then the UUID''s 16';

CREATE TYPE typeid (
    INPUT = typeid_in,
    OUTPUT = typeid_out,
    RECEIVE = typeid_recv,
    SEND = typeid_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = main,
    CATEGORY = 'U'
);
COMMENT ON TYPE typeid IS
'a TypeID: a type prefix and a UUID, shown as prefix_ and 26 Crockford base32 digits, ordered by prefix, then by UUID';

CREATE FUNCTION typeid_eq(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_eq(typeid, typeid) IS
'typeid = typeid';

CREATE FUNCTION typeid_ne(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_ne(typeid, typeid) IS
'typeid <> typeid';

CREATE FUNCTION typeid_lt(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_lt(typeid, typeid) IS
'typeid < typeid';

CREATE FUNCTION typeid_le(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_le(typeid, typeid) IS
'typeid <= typeid';

CREATE FUNCTION typeid_gt(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_gt(typeid, typeid) IS
'typeid > typeid';

CREATE FUNCTION typeid_ge(typeid, typeid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'idcodec_typeid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_ge(typeid, typeid) IS
'typeid >= typeid';

CREATE FUNCTION typeid_cmp(typeid, typeid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_typeid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_cmp(typeid, typeid) IS
'the order of two typeids, by prefix, then by UUID (B-tree support)';

CREATE FUNCTION typeid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'idcodec_typeid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_sortsupport(internal) IS
'sort support of typeid: comparisons without the function manager (B-tree support)';

CREATE FUNCTION typeid_hash(typeid)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_typeid_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_hash(typeid) IS
'the hash of a typeid (hash support)';

CREATE FUNCTION typeid_hash_extended(typeid, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_typeid_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_hash_extended(typeid, bigint) IS
'the seeded 64-bit hash of a typeid (hash partitioning)';

CREATE OPERATOR = (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = typeid, RIGHTARG = typeid, FUNCTION = typeid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR CLASS typeid_ops
DEFAULT FOR TYPE typeid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 typeid_cmp(typeid, typeid),
    FUNCTION 2 typeid_sortsupport(internal),
    -- a typeid equals another only when their stored bytes do: indexes deduplicate
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS typeid_hash_ops
DEFAULT FOR TYPE typeid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 typeid_hash(typeid),
    FUNCTION 2 typeid_hash_extended(typeid, bigint);

CREATE FUNCTION typeid_prefix(id typeid)
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_typeid_type_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_prefix(typeid) IS
'the type prefix of a typeid ('''' when it has none)';

CREATE FUNCTION typeid_uuid(id typeid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_typeid_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_uuid(typeid) IS
'the UUID of a typeid (also the cast from typeid to uuid)';

CREATE FUNCTION typeid(prefix text, id uuid)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_typeid_make'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid(text, uuid) IS
'the typeid of a prefix and a UUID; the prefix is at most 63 lowercase letters and underscores, starting and ending with a letter, or empty';

CREATE CAST (typeid AS uuid) WITH FUNCTION typeid_uuid(typeid);

CREATE FUNCTION gen_typeid(prefix text)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_gen_typeid'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gen_typeid(text) IS
'a new typeid of a version 7 UUID (uuid_generate_v7): strictly increasing within a backend for one prefix';

CREATE FUNCTION typeid_larger(typeid, typeid)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_typeid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_larger(typeid, typeid) IS
'the greater of two typeids (the state of max)';

CREATE FUNCTION typeid_smaller(typeid, typeid)
RETURNS typeid
AS 'MODULE_PATHNAME', 'idcodec_typeid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid_smaller(typeid, typeid) IS
'the lesser of two typeids (the state of min)';

CREATE AGGREGATE max(typeid) (
    SFUNC = typeid_larger, STYPE = typeid, COMBINEFUNC = typeid_larger, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE max(typeid) IS
'the greatest typeid (by prefix, then by UUID)';

CREATE AGGREGATE min(typeid) (
    SFUNC = typeid_smaller, STYPE = typeid, COMBINEFUNC = typeid_smaller, SORTOP = <, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(typeid) IS
'the least typeid (by prefix, then by UUID)';

-- ---- the times of UUIDs, on every major (PostgreSQL 18's results where it has the function)

CREATE FUNCTION uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp(uuid) IS
'the time in a version 1 or 7 UUID, as PostgreSQL 18''s uuid_extract_timestamp; NULL for other versions and variants';

CREATE FUNCTION uuid_version(id uuid)
RETURNS smallint
AS 'MODULE_PATHNAME', 'idcodec_uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_version(uuid) IS
'the version of a UUID of the RFC 9562 variant, as PostgreSQL 17''s uuid_extract_version; NULL for other variants';

CREATE FUNCTION uuid_generate_v7(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_uuid_generate_v7_shifted'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7(interval) IS
'a new version 7 UUID for the current time moved by shift, as PostgreSQL 18''s uuidv7(shift)';

CREATE FUNCTION uuid_v7_least(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_uuid_v7_least'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_least(timestamptz) IS
'the least version 7 UUID of the millisecond of a time, for range scans';

CREATE FUNCTION uuid_v7_greatest(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'idcodec_uuid_v7_greatest'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_greatest(timestamptz) IS
'the greatest version 7 UUID of the millisecond of a time, for range scans';

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
-- name); a name missing from the keyring file is an error. PARALLEL RESTRICTED: they answer in the leader only,
-- from the keyring it read (a parallel worker would read the file at another time).
CREATE FUNCTION idcrypt_encode(number bigint, key_name text, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_encode_named'
LANGUAGE C IMMUTABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idcrypt_encode(bigint, text, text, int, text) IS
'encrypted ID under the key of that name in the keyring file (idcodec.keyring_file, readable only by the server)';

CREATE FUNCTION idcrypt_decode(code text, key_name text, tweak text DEFAULT '', length int DEFAULT NULL,
                               alphabet text DEFAULT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_idcrypt_decode_named'
LANGUAGE C IMMUTABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idcrypt_decode(text, text, text, int, text) IS
'the number of an encrypted ID made under the key of that name in the keyring file; NULL for a code not made with it';

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

-- Snowflake IDs. Generation is VOLATILE (every call a new ID) and PARALLEL SAFE: every process of the server,
-- parallel workers too, takes its IDs from one shared counter.
CREATE FUNCTION snowflake_generate()
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_generate() IS
'new snowflake ID in the pgEdge layout (41 bits of milliseconds since 2023-01-01 UTC, 10 bits of node from idcodec.node_id, 12 bits of counter): unique on the node, increasing';

CREATE FUNCTION snowflake_generate_above(id bigint)
RETURNS void
AS 'MODULE_PATHNAME', 'idcodec_snowflake_generate_above'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION snowflake_generate_above(bigint) IS
'makes this node''s snowflake_generate() stay above an existing ID (of a millisecond the clock has passed), even if the clock steps back';

CREATE FUNCTION snowflake_timestamp(id bigint, layout text DEFAULT 'pgedge')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_snowflake_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_timestamp(bigint, text) IS
'the start of the time unit a snowflake ID holds, under a named layout (pgedge, twitter, discord, instagram, sonyflake, mastodon)';

CREATE FUNCTION snowflake_timestamp(id bigint, epoch timestamptz, unit interval, node_bits integer, counter_bits integer)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_snowflake_timestamp_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_timestamp(bigint, timestamptz, interval, integer, integer) IS
'the start of the time unit a snowflake ID holds, under a custom layout: time units since the epoch above node_bits of node above counter_bits of counter';

CREATE FUNCTION snowflake_node(id bigint, layout text DEFAULT 'pgedge')
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_node(bigint, text) IS
'the node (worker, shard or machine) of a snowflake ID under a named layout';

CREATE FUNCTION snowflake_node(id bigint, node_bits integer, counter_bits integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_node_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_node(bigint, integer, integer) IS
'the node of a snowflake ID under a custom layout: the node_bits above its counter_bits';

CREATE FUNCTION snowflake_counter(id bigint, layout text DEFAULT 'pgedge')
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_counter(bigint, text) IS
'the counter (sequence, increment) of a snowflake ID under a named layout';

CREATE FUNCTION snowflake_counter(id bigint, node_bits integer, counter_bits integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_counter_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_counter(bigint, integer, integer) IS
'the counter of a snowflake ID under a custom layout: its low counter_bits';

CREATE FUNCTION snowflake_least("at" timestamptz, layout text DEFAULT 'pgedge')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_least'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_least(timestamptz, text) IS
'the least snowflake ID of the time unit holding a time, under a named layout: id >= snowflake_least(t) is an index range';

CREATE FUNCTION snowflake_least("at" timestamptz, epoch timestamptz, unit interval, node_bits integer,
                                counter_bits integer)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_least_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_least(timestamptz, timestamptz, interval, integer, integer) IS
'the least snowflake ID of the time unit holding a time, under a custom layout';

-- Taking a bigint column over without touching its rows: an identity, a serial column, or one whose default is
-- pgEdge's snowflake.nextval() (the same layout). The default becomes snowflake_generate() of this extension's schema
-- (looked up at each call, so a relocated extension is found), an identity is dropped (with its sequence), a serial
-- column's or pgEdge's sequence is left to whatever else uses it. Runs with the caller's rights: ALTER TABLE asks for
-- ownership of the table. Only tables: the highest value is read from the relation, and a view would run its owner's
-- code with the caller's rights. A partitioned table's partitions change with it; a plain table's inheritance
-- children keep their own defaults. Every row is judged: the table is read after ALTER TABLE has locked it, by a
-- snapshot taken then (so only in READ COMMITTED, where each statement takes its own), and with FORCE ROW LEVEL
-- SECURITY lifted for that read (the caller owns the table, which then sees every row); any error rolls it all back.
-- check-scripts: accept IC001: what EXECUTE runs names the table by its regclass, the column with %I, the functions by pg_catalog or by idcodec's schema with %I
CREATE FUNCTION snowflake_convert_column(table_name regclass, column_name name)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
    table_kind pg_catalog."char";
    is_partition pg_catalog.bool;
    forces_row_security pg_catalog.bool;
    only_table pg_catalog.text;
    column_number pg_catalog.int2;
    column_type pg_catalog.oid;
    column_identity pg_catalog."char";
    column_default pg_catalog.text;
    from_pgedge pg_catalog.bool;
    extension_schema pg_catalog.name;
    new_default pg_catalog.text;
    highest pg_catalog.int8;
    lowest_new pg_catalog.int8;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation')
           OPERATOR(pg_catalog.<>) ALL (ARRAY['read committed', 'read uncommitted']) THEN
        RAISE EXCEPTION 'snowflake_convert_column: cannot run in a % transaction',
                        pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = 'invalid_transaction_state',
                  DETAIL = 'Its snapshot was taken before the table was locked: rows committed since would not be '
                           'seen, and every row must be.',
                  HINT = 'Run it in a READ COMMITTED transaction (the default).';
    END IF;
    SELECT c.relkind, c.relispartition, c.relrowsecurity AND c.relforcerowsecurity
      INTO table_kind, is_partition, forces_row_security
      FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) table_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'snowflake_convert_column: relation with OID % does not exist', table_name::pg_catalog.oid
            USING ERRCODE = 'undefined_table';
    END IF;
    IF table_kind OPERATOR(pg_catalog.<>) ALL (ARRAY['r', 'p', 'f']::pg_catalog."char"[]) THEN
        RAISE EXCEPTION 'snowflake_convert_column: % is not a table', table_name
            USING ERRCODE = 'wrong_object_type';
    END IF;
    IF is_partition THEN
        RAISE EXCEPTION 'snowflake_convert_column: % is a partition', table_name
            USING ERRCODE = 'wrong_object_type',
                  HINT = 'Convert the column of its partitioned table: every partition takes the new default.';
    END IF;
    only_table := 'ONLY ';
    IF table_kind OPERATOR(pg_catalog.=) 'p' THEN
        only_table := '';
    END IF;
    SELECT a.attnum, a.atttypid, a.attidentity, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
      INTO column_number, column_type, column_identity, column_default
      FROM pg_catalog.pg_attribute a
      LEFT JOIN pg_catalog.pg_attrdef d
        ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
     WHERE a.attrelid OPERATOR(pg_catalog.=) table_name AND a.attname OPERATOR(pg_catalog.=) column_name
       AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" of relation % does not exist', column_name, table_name
            USING ERRCODE = 'undefined_column';
    END IF;
    IF column_type OPERATOR(pg_catalog.<>) 'pg_catalog.int8'::pg_catalog.regtype THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" is of type %, not bigint', column_name,
                        column_type::pg_catalog.regtype
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'Snowflake IDs need 64 bits: change the column''s type to bigint first.';
    END IF;
    -- pgEdge's generator: the default calls the function nextval of the extension named snowflake
    SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 INTO from_pgedge
      FROM pg_catalog.pg_attrdef d
      JOIN pg_catalog.pg_depend called
        ON called.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
       AND called.objid OPERATOR(pg_catalog.=) d.oid
       AND called.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) called.refobjid
      JOIN pg_catalog.pg_depend member
        ON member.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
       AND member.objid OPERATOR(pg_catalog.=) p.oid
       AND member.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
       AND member.deptype OPERATOR(pg_catalog.=) 'e'
      JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) member.refobjid
     WHERE d.adrelid OPERATOR(pg_catalog.=) table_name AND d.adnum OPERATOR(pg_catalog.=) column_number
       AND e.extname OPERATOR(pg_catalog.=) 'snowflake' AND p.proname OPERATOR(pg_catalog.=) 'nextval';
    SELECT n.nspname INTO extension_schema
      FROM pg_catalog.pg_extension e
      JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
     WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec';
    new_default := pg_catalog.format('%I.snowflake_generate()', extension_schema);
    IF column_identity OPERATOR(pg_catalog.<>) '' THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I DROP IDENTITY', only_table, table_name,
                                  column_name);
    ELSIF column_default IS NULL OR (pg_catalog.pg_get_serial_sequence(table_name::pg_catalog.text, column_name) IS NULL
                                     AND NOT from_pgedge) THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" of relation % is neither an identity nor a serial column',
                        column_name, table_name
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Its default must be an identity, a sequence the column owns, or pgEdge''s snowflake.nextval().';
    END IF;
    EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I SET DEFAULT %s', only_table, table_name, column_name,
                              new_default);
    -- The table is locked by ALTER TABLE: no row can come in between, and this statement's snapshot sees every row
    -- committed before. Row security forced on the owner would hide rows from it: lifted for this read.
    IF forces_row_security THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', table_name);
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s', column_name, table_name) INTO highest;
    IF forces_row_security THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', table_name);
    END IF;
    -- the clock now, not the transaction's start: a key made a moment before the call (pgEdge's) is below it
    EXECUTE pg_catalog.format('SELECT %I.snowflake_least(pg_catalog.clock_timestamp(), ''pgedge''::pg_catalog.text)',
                              extension_schema) INTO lowest_new;
    IF highest OPERATOR(pg_catalog.>=) lowest_new THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" holds %, not below the snowflake IDs of now',
                        column_name, highest
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = pg_catalog.format('New IDs would start at %s.', lowest_new);
    END IF;
    -- the node's counter stays above the column's keys even if the clock steps back (pgEdge's are of a moment ago)
    IF highest OPERATOR(pg_catalog.>) 0 THEN
        EXECUTE pg_catalog.format('SELECT %I.snowflake_generate_above($1)', extension_schema) USING highest;
    END IF;
END
$body$;
COMMENT ON FUNCTION snowflake_convert_column(regclass, name) IS
'makes a bigint identity, serial or pgEdge snowflake.nextval() column take snowflake_generate() as its default, its rows untouched (new IDs come above them)';
