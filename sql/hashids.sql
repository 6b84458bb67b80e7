-- hashids: values checked against hashids.js 2.3.0
\pset null '(null)'
\i test/regress/error_of.sql

-- defaults and the documented facts
SELECT hashids_encode(42) AS default_42, hashids_encode(42, 'my salt', 8) AS salted_min8;
SELECT hashids_encode(347, 'this is my salt') AS yr8,
       hashids_encode(ARRAY[27, 986], 'this is my salt') AS "nOSQY",
       hashids_encode(9223372036854775807) AS max_bigint;
SELECT hashids_encode(12345, 'sälz') AS "KAkO", hashids_encode(12345, '日本語') AS "59Yx";
SELECT hashids_encode(ARRAY[1, 2, 3]) AS default_123, hashids_encode(ARRAY[1, 2, 3], 'my salt', 8) AS salted_123;
SELECT hashids_encode(12345, 'salt with spaces', 0, 'abc defghijklmnopqrstuvwxyz') AS spaces_allowed;
SELECT hashids_encode('{}'::bigint[]) AS empty_array;

-- decoding
SELECT hashids_decode('nOSQY', 'this is my salt') AS pair,
       hashids_decode_one('yr8', 'this is my salt') AS one,
       hashids_decode('p21ZD04m8GQ42') AS max_bigint;
SELECT hashids_decode('3kTMd', 'this is my salt') AS older_version,
       hashids_decode('nOSQZ', 'this is my salt') AS tampered,
       hashids_decode('nOSQ', 'this is my salt') AS truncated,
       hashids_decode('', 'this is my salt') AS empty,
       hashids_decode('nOS QY!', 'this is my salt') AS foreign_characters;
SELECT hashids_decode_one('nOSQY', 'this is my salt') AS several_numbers,
       hashids_decode_one('yr9', 'this is my salt') AS tampered;
-- the settings must match: min_length is part of what makes an ID canonical
SELECT hashids_decode_one('7Nj0mZnD', 'my salt', 8) AS right_settings,
       hashids_decode_one('7Nj0mZnD', 'my salt') AS without_min_length,
       hashids_decode_one('7Nj0mZnD', 'other salt', 8) AS other_salt;

-- hex
SELECT hashids_encode_hex('507f1f77bcf86cd799439011', 'this is my salt') AS objectid_hex,
       hashids_decode_hex(hashids_encode_hex('DEADbeef', 'this is my salt'), 'this is my salt') AS lowercased,
       hashids_decode_hex('not a hashid!', 'this is my salt') AS invalid,
       hashids_encode_hex('') AS empty;

-- round trips over many numbers and settings
SELECT count(*) AS round_trip_failures
FROM generate_series(0, 20000) AS n,
     (VALUES ('', 0), ('this is my salt', 8), ('日本語', 30)) AS s(salt, min_length)
WHERE hashids_decode_one(hashids_encode(n, s.salt, s.min_length), s.salt, s.min_length) IS DISTINCT FROM n
   OR length(hashids_encode(n, s.salt, s.min_length)) < s.min_length;

-- NULLs: every function is STRICT
SELECT hashids_encode(NULL::bigint) AS a, hashids_encode(1, NULL) AS b, hashids_encode(1, '', NULL) AS c,
       hashids_decode(NULL) AS d, hashids_decode_one('yr8', NULL) AS e, hashids_encode_hex(NULL) AS f;

-- errors and their SQLSTATEs
SELECT pg_temp.error_of($$SELECT hashids_encode(-1)$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(ARRAY[1, -5])$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(ARRAY[1, NULL])$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(ARRAY[[1, 2], [3, 4]])$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(1, '', 0, 'abcdefghijkabcdefghijkl')$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(1, '', -1)$$);
SELECT pg_temp.error_of($$SELECT hashids_encode(1, '', 1000001)$$);
SELECT pg_temp.error_of($$SELECT hashids_decode('abc', '', -1)$$);
SELECT pg_temp.error_of($$SELECT hashids_encode_hex('12xz')$$);
SELECT length(hashids_encode(1, '', 1000000)) AS longest_min_length;

-- public IDs in a table: a generated column, a unique index, a lookup by public id
CREATE TABLE customer (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)) STORED UNIQUE
);
INSERT INTO customer (name) SELECT 'customer ' || i FROM generate_series(1, 1000) AS i;
SELECT id, name, public_id FROM customer WHERE public_id = hashids_encode(42, 'customer salt', 8);
SELECT name FROM customer WHERE id = hashids_decode_one((SELECT public_id FROM customer WHERE id = 7), 'customer salt', 8);

-- a view exposing public IDs, and an expression index serving lookups through it
CREATE TABLE invoice (id bigint PRIMARY KEY, amount numeric NOT NULL);
INSERT INTO invoice SELECT i, i * 1.5 FROM generate_series(1, 1000) AS i;
CREATE INDEX invoice_public_id ON invoice ((hashids_encode(id, 'invoice salt', 10)));
CREATE VIEW public_invoice AS SELECT hashids_encode(id, 'invoice salt', 10) AS invoice_id, amount FROM invoice;
ANALYZE invoice;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT amount FROM public_invoice WHERE invoice_id = hashids_encode(500, 'invoice salt', 10);
SELECT amount FROM public_invoice WHERE invoice_id = hashids_encode(500, 'invoice salt', 10);
RESET enable_seqscan;

-- every function is IMMUTABLE STRICT PARALLEL SAFE
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE p.proname LIKE 'hashids%'
ORDER BY p.oid::regprocedure::text COLLATE "C";
