-- idcodec_pg_hashids without pg_hashids: pg_hashids 1.3's functions and signatures, computed by idcodec. Expected
-- values are hashids.js 2.3.0's (test/vectors/README.md lists them), which pg_hashids gives too for ASCII settings.
\pset null '(null)'
\i test/regress/error_of.sql
SET client_min_messages = warning;
CREATE EXTENSION idcodec_pg_hashids;
RESET client_min_messages;

SELECT id_encode(347, 'this is my salt') AS "yr8", id_encode(ARRAY[27, 986], 'this is my salt') AS "nOSQY",
       id_encode(9223372036854775807) AS "p21ZD04m8GQ42", id_encode(12345, '日本語') AS "59Yx",
       hash_encode(347, 'this is my salt') AS "yr8";
SELECT id_decode('nOSQY', 'this is my salt') AS "{27,986}", id_decode_once('nOSQY', 'this is my salt') AS "27",
       id_decode_once('yr8', 'this is my salt') AS "347", hash_decode('yr8', 'this is my salt', 0) AS "347";
-- every arity takes the defaults for what it leaves out
SELECT id_encode(42) = id_encode(42, '') AND id_encode(42, 's') = id_encode(42, 's', 0)
       AND id_encode(42, 's', 0) = id_encode(42, 's', 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890')
       AND id_encode(ARRAY[4, 2]) = id_encode(ARRAY[4, 2], '', 0) AND hash_encode(9) = id_encode(9) AS defaults;
-- an ID made with a min_length decodes with any positive min_length, as in pg_hashids
SELECT id_decode(id_encode(5, 'salt', 10), 'salt', 10) AS same, id_decode(id_encode(5, 'salt', 10), 'salt', 1) AS other,
       id_decode(id_encode(5, 'salt', 10), 'salt') AS without;

-- where pg_hashids is wrong, idcodec's behaviour
SELECT pg_temp.error_of($$SELECT id_encode(-1)$$);
SELECT pg_temp.error_of($$SELECT id_encode(ARRAY[1, -2])$$);
SELECT pg_temp.error_of($$SELECT id_encode(1, 'salt', -1)$$);
SELECT pg_temp.error_of($$SELECT id_encode('{{1,2},{3,4}}'::bigint[])$$);
SELECT pg_temp.error_of($$SELECT hash_decode(id_encode(3000000000, 'salt', 0), 'salt', 0)$$);
SELECT id_decode('yr9', 'this is my salt') AS tampered, id_decode_once('yr9', 'this is my salt') AS tampered_once,
       id_decode('!!!') AS junk, id_decode('') AS empty, id_encode('{}'::bigint[]) AS empty_array;

-- the catalog: every function IMMUTABLE STRICT PARALLEL SAFE, with a comment
SELECT count(*) AS functions,
       count(*) FILTER (WHERE p.provolatile = 'i' AND p.proisstrict AND p.proparallel = 's') AS immutable_strict_safe,
       count(*) FILTER (WHERE obj_description(p.oid, 'pg_proc') <> '') AS commented
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec_pg_hashids';
DROP EXTENSION idcodec_pg_hashids;
