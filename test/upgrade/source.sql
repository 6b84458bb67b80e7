-- The database a major upgrade must carry over: what a real one holds of idcodec. Loaded on the old major after
-- examples/shorturl.sql (link codes, the short-URL table partitioned by code, ObjectId documents) and
-- examples/dedup.sql (the dedup store), with pg_hashids installed.
SET client_min_messages = warning;

-- A table coming from pg_hashids, taken over in place below.
CREATE EXTENSION pg_hashids;
CREATE TABLE account (
    id bigint PRIMARY KEY,
    public_id text GENERATED ALWAYS AS (id_encode(id, 'account salt', 8)) STORED
);
INSERT INTO account SELECT generate_series(1, 20000);
CREATE INDEX account_by_public_id ON account (id_decode_once(public_id, 'account salt', 8));
-- the IDs pg_hashids gives the rows inserted after the upgrade
CREATE TABLE expected_id (tbl text, id bigint, public_id text, PRIMARY KEY (tbl, id));
INSERT INTO expected_id SELECT 'account', g, id_encode(g, 'account salt', 8) FROM generate_series(20001, 20100) g;
CREATE EXTENSION idcodec_pg_hashids CASCADE;
DROP EXTENSION pg_hashids;

-- Public IDs as stored generated columns with unique indexes.
CREATE TABLE customer (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    hashid text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)) STORED UNIQUE,
    sqid text GENERATED ALWAYS AS (sqids_encode(id, min_length => 6)) STORED UNIQUE
);
INSERT INTO customer (name) SELECT 'customer ' || g FROM generate_series(1, 20000) g;

-- Keys made elsewhere (ObjectIds, UUIDs) with their compact public forms.
CREATE TABLE event (
    objectid text PRIMARY KEY CHECK (objectid ~ '^[0-9a-f]{24}$'),
    trace uuid NOT NULL,
    short_id text GENERATED ALWAYS AS (objectid_compress(objectid)) STORED UNIQUE,
    created timestamptz GENERATED ALWAYS AS (objectid_timestamp(objectid)) STORED
);
INSERT INTO event (objectid, trace)
SELECT left(md5('event ' || g), 24), md5('trace ' || g)::uuid FROM generate_series(1, 20000) g;
CREATE INDEX event_by_short_trace ON event (uuid_compress(trace));

-- IDs computed in a view, served by expression indexes.
CREATE TABLE invoice (id bigint PRIMARY KEY, amount numeric NOT NULL);
INSERT INTO invoice SELECT g, g * 1.5 FROM generate_series(1, 20000) g;
CREATE INDEX invoice_by_hashid ON invoice ((hashids_encode(id, 'invoice salt', 10)));
CREATE INDEX invoice_by_base62 ON invoice ((base62_encode(id)));
CREATE VIEW public_invoice AS
    SELECT hashids_encode(id, 'invoice salt', 10) AS invoice_id, base62_encode(id) AS short_id, amount FROM invoice;

-- Near-duplicate search: winnowing fingerprints under GIN.
CREATE TABLE document (
    id bigint PRIMARY KEY,
    body text NOT NULL,
    fingerprints bigint[] GENERATED ALWAYS AS (winnow(body, 5, 4)) STORED
);
INSERT INTO document
SELECT g, format('Document %s: %s %s', g, md5(g::text), md5((g * 7)::text)) FROM generate_series(1, 5000) g;
CREATE INDEX document_fingerprints ON document USING gin (fingerprints);

-- SQL functions calling the codecs: one with a body the server parses and tracks (BEGIN ATOMIC), one as a string.
CREATE FUNCTION customer_id(public_id text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT coalesce((sqids_decode(public_id, min_length => 6, canonical => true))[1],
                    hashids_decode_one(public_id, 'customer salt', 8));
END;
CREATE FUNCTION invoice_id(public_id text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT hashids_decode_one(public_id, 'invoice salt', 10) $$;

-- Keys of the native types: a typeid key of a domain per prefix, and a ulid key of a table hash-partitioned by it
-- (its rows must stay in their partitions) with hash and BRIN indexes, referencing it.
CREATE DOMAIN member_id AS typeid CHECK (typeid_prefix(VALUE) = 'member');
CREATE TABLE member (id member_id PRIMARY KEY, made int NOT NULL);
INSERT INTO member SELECT typeid('member', uuid_v7_least(timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute')), g
FROM generate_series(1, 5000) g;
CREATE TABLE activity (id ulid PRIMARY KEY, member member_id NOT NULL REFERENCES member, n int NOT NULL)
    PARTITION BY HASH (id);
CREATE TABLE activity_0 PARTITION OF activity FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE activity_1 PARTITION OF activity FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE activity_2 PARTITION OF activity FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO activity
SELECT ulid_least(timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'),
       typeid('member', uuid_v7_least(timestamptz '2026-01-01 00:00:00+00' + (1 + g % 5000) * interval '1 minute')), g
FROM generate_series(1, 30000) g;
CREATE INDEX activity_by_member ON activity USING hash (member);
CREATE INDEX activity_by_time ON activity USING brin (id);

-- More short URLs and stored files (the examples' functions find their tables on the search path).
SET search_path = public, shorturl, dedup;
SELECT count(shorten('https://example.org/article/' || g)) FROM generate_series(1, 3000) g;
INSERT INTO url_code (code, url, attempt)
SELECT (shortcode_candidates(url))[1], url, 0 FROM (SELECT 'https://example.org/page/' || g AS url
                                                     FROM generate_series(1, 30000) g) AS u
ON CONFLICT (code) DO NOTHING;
INSERT INTO link (url) SELECT 'https://example.org/post/' || g FROM generate_series(1, 3000) g;
SELECT store('data-' || g || '.bin', convert_to(repeat(md5(g::text) || ' shared text ', 2000 + g * 50), 'UTF8'))
FROM generate_series(1, 20) g;

-- What idcodec gives on this major for the rows inserted after the upgrade.
INSERT INTO expected_id
SELECT 'customer', g, hashids_encode(g, 'customer salt', 8) || ' ' || sqids_encode(g, min_length => 6)
FROM generate_series(20001, 20100) g;
INSERT INTO expected_id
SELECT 'link', g, base62_mixup(g, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut')
FROM generate_series((SELECT max(id) + 1 FROM shorturl.link), (SELECT max(id) + 100 FROM shorturl.link)) g;
INSERT INTO expected_id
SELECT 'url_code', g, (shortcode_candidates('https://example.org/new/' || g))[1] FROM generate_series(1, 100) g;

-- Every stored ID and digest, to compare after the upgrade.
CREATE TABLE before_upgrade AS
SELECT 'account' AS tbl, count(*) AS n, md5(string_agg(public_id, ',' ORDER BY id)) AS digest FROM account
UNION ALL SELECT 'customer', count(*), md5(string_agg(hashid || sqid, ',' ORDER BY id)) FROM customer
UNION ALL SELECT 'event', count(*), md5(string_agg(short_id || extract(epoch FROM created), ',' ORDER BY objectid)) FROM event
UNION ALL SELECT 'document', count(*), md5(string_agg(fingerprints::text, ',' ORDER BY id)) FROM document
UNION ALL SELECT 'link', count(*), md5(string_agg(code, ',' ORDER BY id)) FROM shorturl.link
UNION ALL SELECT 'url_code', count(*), md5(string_agg(code || url, ',' ORDER BY code COLLATE "C")) FROM shorturl.url_code
UNION ALL SELECT 'mongo_document', count(*), md5(string_agg(public_id || extract(epoch FROM created), ',' ORDER BY objectid))
          FROM shorturl.mongo_document
UNION ALL SELECT 'chunk', count(*), md5(string_agg(digest::text, ',' ORDER BY digest)) FROM dedup.chunk
UNION ALL SELECT 'file', count(*), md5(string_agg(name || chunks::text, ',' ORDER BY name)) FROM dedup.file
UNION ALL SELECT 'member', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM member
UNION ALL SELECT 'activity', count(*), md5(string_agg(id::text || member::text || tableoid::regclass::text, ',' ORDER BY id))
          FROM activity;
ANALYZE;
