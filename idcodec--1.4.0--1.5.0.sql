-- idcodec 1.5.0: native types of time-ordered IDs. ulid (16 bytes, the same as its uuid) and typeid (a TypeID's
-- prefix and UUID) with text and binary I/O, B-tree, hash and BRIN operator classes and casts; the times and
-- versions of UUIDs, shifted version 7 UUIDs and the least and greatest UUID and ULID of a time, on every major.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.5.0'" to load this file. \quit

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
    FUNCTION 2 ulid_sortsupport(internal);

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
-- partitions, and the two hash-join. Not MERGES: the families hold no uuid-with-uuid members, which merging needs.

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
    FUNCTION 1 (uuid, ulid) uuid_ulid_cmp(uuid, ulid);

-- a uuid key is hashed as uuid hashes it: the same bytes, the same hash as a ulid's
ALTER OPERATOR FAMILY ulid_hash_ops USING hash ADD
    OPERATOR 1 = (ulid, uuid),
    OPERATOR 1 = (uuid, ulid),
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
    FUNCTION 2 typeid_sortsupport(internal);

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
