-- idcodec 1.5.1: operator families the planner cannot break. ulid's B-tree and hash families hold the ulid-uuid
-- operators, so they also hold uuid's own members (a family with two types needs every comparison among them, or
-- the planner fails on IN lists, = ANY arrays and hashed subqueries that mix them); the B-tree classes of ulid and
-- typeid say that equality is image equality, so their indexes deduplicate. Indexes built before the update stay
-- valid; they deduplicate once rebuilt (REINDEX).
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.5.1'" to load this file. \quit

-- uuid with uuid, by uuid's own operators and functions: a uuid IN list or array against a ulid column is compared
-- within one family, and a hashed IN subquery finds uuid's equality next to ulid's
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
    OPERATOR 1 pg_catalog.< (uuid, uuid),
    OPERATOR 2 pg_catalog.<= (uuid, uuid),
    OPERATOR 3 pg_catalog.= (uuid, uuid),
    OPERATOR 4 pg_catalog.>= (uuid, uuid),
    OPERATOR 5 pg_catalog.> (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_cmp(uuid, uuid),
    FUNCTION 2 (uuid, uuid) pg_catalog.uuid_sortsupport(internal),
    FUNCTION 4 (ulid, ulid) pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY ulid_hash_ops USING hash ADD
    OPERATOR 1 pg_catalog.= (uuid, uuid);

-- a typeid equals another only when their stored bytes do
ALTER OPERATOR FAMILY typeid_ops USING btree ADD
    FUNCTION 4 (typeid, typeid) pg_catalog.btequalimage(oid);
