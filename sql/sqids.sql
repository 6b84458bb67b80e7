-- sqids: values checked against sqids 0.3.0 (npm)
\pset null '(null)'
\i test/regress/error_of.sql

-- defaults and the documented facts
SELECT sqids_encode(ARRAY[1, 2, 3]) AS "86Rf07", sqids_encode(0) AS "bM", sqids_encode(42) AS "Jg";
SELECT sqids_encode(9223372036854775807) AS max_bigint,
       sqids_encode(ARRAY[0, 9223372036854775807]) AS zero_and_max,
       sqids_encode(7399616855974452) AS "i3nVc0ckRm";
SELECT sqids_encode(ARRAY[1, 2, 3], min_length => 10) AS padded,
       sqids_encode(ARRAY[1, 2, 3], 'FxnXM1kBN6cuhsAvjW3Co7l2RePyY8DwaU04Tzt9fHQrqSVKdpimLGIJOgb5ZE') AS custom_alphabet;
SELECT sqids_encode('{}'::bigint[]) AS empty_array;

-- the blocklist: NULL is the default list, '{}' is none
SELECT sqids_encode(4572721) AS default_list, sqids_encode(4572721, blocklist => '{}') AS no_list,
       sqids_encode(4572721, blocklist => ARRAY['AHO1E']) AS own_list;
SELECT pg_temp.error_of($$SELECT sqids_encode(1, 'abc', 3, ARRAY(
    SELECT a || b || c FROM unnest('{a,b,c}'::text[]) a, unnest('{a,b,c}'::text[]) b, unnest('{a,b,c}'::text[]) c))$$);

-- decoding follows the spec: numbers up to a malformed part, nothing for foreign characters
SELECT sqids_decode('86Rf07') AS "1,2,3", sqids_decode('86Rf07xx') AS trailing_garbage,
       sqids_decode('86R*f07') AS foreign_character, sqids_decode('') AS empty,
       sqids_decode('AqkYhRmbHpEX') AS max_bigint;
-- ... and canonical => true accepts only the one ID that encode gives
SELECT sqids_decode('86Rf07', canonical => true) AS canonical,
       sqids_decode('86Rf07xx', canonical => true) AS trailing_garbage,
       sqids_decode('bMZn4Y5Fq8') AS padded_id, sqids_decode('bMZn4Y5Fq8', canonical => true) AS without_min_length,
       sqids_decode('bMZn4Y5Fq8', min_length => 10, canonical => true) AS with_min_length;
-- a value beyond bigint decodes to '{}', never to a wrapped negative number
SELECT sqids_decode('AqkYhRmbHpEXAqkYhRmbHpEX') AS overflow;

-- round trips
SELECT count(*) AS round_trip_failures
FROM generate_series(0, 20000) AS n, (VALUES (0), (10), (30)) AS m(min_length)
WHERE sqids_decode(sqids_encode(n, min_length => m.min_length), min_length => m.min_length, canonical => true)
      IS DISTINCT FROM ARRAY[n]::bigint[];

-- NULLs give NULL, except the blocklist
SELECT sqids_encode(NULL::bigint) AS a, sqids_encode(1, NULL) AS b, sqids_encode(1, min_length => NULL) AS c,
       sqids_encode(1, blocklist => NULL) AS default_list, sqids_decode(NULL) AS d,
       sqids_decode('86Rf07', canonical => NULL) AS e;

-- errors and their SQLSTATEs
SELECT pg_temp.error_of($$SELECT sqids_encode(-1)$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(ARRAY[1, NULL])$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, 'abcä')$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, 'ab')$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, 'abca')$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, min_length => 256)$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, min_length => -1)$$);
SELECT pg_temp.error_of($$SELECT sqids_decode('x', 'aa')$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, blocklist => ARRAY['abc', NULL])$$);
SELECT pg_temp.error_of($$SELECT sqids_encode(1, blocklist => '{{abc,def},{ghi,jkl}}')$$);

-- a generated column with a unique index, and lookups through it
CREATE TABLE article (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    title text NOT NULL,
    sqid text GENERATED ALWAYS AS (sqids_encode(id, min_length => 6)) STORED UNIQUE
);
INSERT INTO article (title) SELECT 'article ' || i FROM generate_series(1, 500) AS i;
SELECT id, title, sqid FROM article WHERE sqid = sqids_encode(42, min_length => 6);
SELECT title FROM article WHERE id = (sqids_decode((SELECT sqid FROM article WHERE id = 7), min_length => 6,
                                                   canonical => true))[1];

-- every sqids function is IMMUTABLE PARALLEL SAFE (not STRICT, for the NULL blocklist)
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE p.proname LIKE 'sqids%'
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- The blocklist is matched case-insensitively by ASCII rules only, as the reference does (npm sqids 0.3.0 gives
-- these); a locale's own case rules (Turkish: 'I' is not upper-case 'i') must not change an ID.
SELECT sqids_encode(130208) AS "LSLS", sqids_encode(45516, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') AS "MJTOF",
       sqids_encode(ARRAY[1, 2, 3], 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') AS "KHA4C5";
SELECT sqids_decode('MJTOF', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', canonical => true) AS "{45516}";
