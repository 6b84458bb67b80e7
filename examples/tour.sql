-- A tour of idcodec, one family at a time: what `bash scripts/demo.sh` shows. Runs in any database with idcodec
-- and leaves nothing behind (everything lives in the schema "tour", dropped at the end).
\set ECHO queries
\set QUIET on
\pset footer off
\set schema tour
\ir fresh_schema.sql

-- 1. Public IDs: the integer key stays inside; hashids and sqids IDs are generated columns, looked up by index.
CREATE TABLE customer (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    hashid text GENERATED ALWAYS AS (hashids_encode(id, 'customers', 8)) STORED UNIQUE,
    sqid text GENERATED ALWAYS AS (sqids_encode(id, min_length => 6)) STORED UNIQUE
);
INSERT INTO customer (name) VALUES ('Ada'), ('Grace'), ('Linus');
SELECT id, name, hashid, sqid FROM customer ORDER BY id;
-- a view that shows only public IDs, and lookups by them (a tampered ID finds nothing)
CREATE VIEW public_customer AS SELECT hashid AS customer_id, name FROM customer;
SELECT * FROM public_customer ORDER BY name;
SELECT name FROM customer WHERE id = hashids_decode_one((SELECT hashid FROM customer WHERE name = 'Grace'), 'customers', 8);
SELECT name FROM customer WHERE id = (sqids_decode((SELECT sqid FROM customer WHERE name = 'Linus'), min_length => 6))[1];
\pset null '(null)'
SELECT hashids_decode_one('xxxxxxxx', 'customers', 8) AS tampered;

-- 2. Compact identifiers: a MongoDB ObjectId in 16 characters, a UUID in 22, and back.
SELECT objectid_compress('4e7020cb7cac81af7136236b') AS objectid_16,
       objectid_decompress('jD0wOTOIwqZNdydH') AS objectid_back,
       objectid_timestamp('4e7020cb7cac81af7136236b') AS created;
SELECT uuid_compress('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS uuid_22,
       uuid_decompress('EeWYCpMbjLyXrmKVLjwa4g') AS uuid_back;

-- 3. Short URLs: codes from the URL's MD5; when all four candidates are taken, the next attempt gives fresh ones.
CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL UNIQUE, attempt int NOT NULL);
-- shorten(url, length) and resolve(code), from examples/shorturl_service.sql, counting hits as hit_count.sql does
\set ECHO none
\ir hit_count.sql
\ir shorturl_service.sql
\set ECHO queries
SELECT shorten('https://www.postgresql.org/docs/current/xfunc-c.html', 6) AS code,
       shorten('https://www.postgresql.org/docs/current/xfunc-c.html', 6) AS same_url_same_code;
-- with one-character codes (62 of them) collisions come quickly, and every URL still gets a code
SELECT count(shorten('https://example.com/page/' || i, 1)) AS shortened FROM generate_series(1, 60) i;
SELECT count(*) FILTER (WHERE attempt > 0) AS needed_a_retry, max(attempt) AS most_attempts FROM url_code;

-- 4. Rolling hashes: the hash of every 4-byte window, each computed from the previous one in O(1).
SELECT pos, hash FROM rolling_hash('content-defined'::bytea, 4, 'buzhash') LIMIT 4;

-- 5. Content-defined chunking: two versions of a document in a deduplicating store.
CREATE TABLE chunk (digest bytea PRIMARY KEY, data bytea NOT NULL);
CREATE TABLE file (name text PRIMARY KEY, size bigint NOT NULL, chunks bytea[] NOT NULL);
-- store(name, content) and restore(name), from examples/dedup_store.sql
\set ECHO none
\ir dedup_store.sql
\set ECHO queries
CREATE TABLE draft AS
SELECT 1 AS version, convert_to(string_agg(format('Line %s: %s', i, md5(i::text)), E'\n' ORDER BY i), 'UTF8') AS content
FROM generate_series(1, 3000) i;
INSERT INTO draft  -- version 2: a paragraph inserted near the start
SELECT 2, overlay(content PLACING convert_to(E'A new paragraph.\n', 'UTF8') FROM 500 FOR 0) FROM draft;
SELECT count(*) AS files_stored FROM draft, LATERAL (SELECT store('report-v' || version, content)) AS stored;
SELECT f.name, f.size, cardinality(f.chunks) AS chunks,
       cardinality(ARRAY(SELECT unnest(f.chunks) EXCEPT SELECT unnest(v1.chunks))) AS chunks_not_in_v1
FROM file f, file v1 WHERE v1.name = 'report-v1' ORDER BY f.name;
SELECT (SELECT sum(size) FROM file) AS bytes_in_files, (SELECT sum(length(data)) FROM chunk) AS bytes_stored,
       round(100 * (1 - (SELECT sum(length(data)) FROM chunk)::numeric / (SELECT sum(size) FROM file))) AS percent_saved;

-- 6. Winnowing: fingerprints in a GIN index find the near-duplicate of a passage.
CREATE TABLE doc (id int PRIMARY KEY, body text, fingerprints bigint[]);
INSERT INTO doc (id, body) VALUES
    (1, 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.'),
    (2, 'PostgreSQL extensions add functions, types and index methods to the server.'),
    (3, 'A lazy dog slept while the quick brown fox jumped over it near the riverbank.');
UPDATE doc SET fingerprints = winnow(lower(regexp_replace(body, '\W', '', 'g')), 5, 4);
CREATE INDEX ON doc USING gin (fingerprints);
SELECT id, left(body, 40) AS starts_with,
       cardinality(ARRAY(SELECT unnest(fingerprints) INTERSECT SELECT unnest(q.f))) AS shared_fingerprints
FROM doc, winnow(lower(regexp_replace('the quick brown fox jumps over the lazy dog', '\W', '', 'g')), 5, 4) AS q(f)
WHERE fingerprints && q.f ORDER BY shared_fingerprints DESC;

-- 7. Encrypted IDs: FF1 over AES. Sequential keys give unrelated 14-character codes; a tampered code decodes to
-- nothing. (In production the key is named in idcodec.keyring, not written in the query.)
SELECT i AS id, idcrypt_encode(i, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'invoice') AS public_id
FROM generate_series(1, 3) AS i;
SELECT idcrypt_decode(idcrypt_encode(2, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'invoice'),
                      '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'invoice') AS back,
       idcrypt_decode('0000000000000a', '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'invoice') AS tampered;
SELECT ff1_encrypt('4111111111111111', '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789') AS card_digits_encrypted;

-- 8. Time-ordered IDs: a version 7 UUID key, shown as a TypeID and a ULID; the TypeID decodes back to the key.
CREATE TABLE account (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    public_id text GENERATED ALWAYS AS (typeid_encode('acct', id)) STORED UNIQUE,
    name text NOT NULL
);
INSERT INTO account (name) VALUES ('first'), ('second'), ('third');
SELECT name, public_id, ulid_encode(id) AS ulid, typeid_decode(public_id) = id AS decodes FROM account ORDER BY id;
SELECT typeid_encode('prefix', '01890a5d-ac96-774b-bcce-b302099a8057') AS typeid,
       ulid_timestamp('01H455VB4PEX5VSKNK084SN02Q') AS ulid_time;

RESET search_path;
DROP SCHEMA tour CASCADE;
