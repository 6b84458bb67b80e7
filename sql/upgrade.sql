-- Installing an earlier release and updating gives the current functions. Each release from 1.0.0 on (the first; the
-- versions before it were never released) is installed from its complete install script, a test fixture
-- (test/releases/, installed by `make install WITH_RELEASE_FIXTURES=1`: the package and a plain `make install`
-- ship only the current version's), with the functions it had, and updated through the chain to the current
-- version, with its functions and the same outputs.
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.idcodec_functions() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
    WHERE d.classid = 'pg_proc'::regclass
$$;
CREATE FUNCTION pg_temp.idcodec_version() RETURNS text LANGUAGE sql AS $$
    SELECT extversion FROM pg_extension WHERE extname = 'idcodec'
$$;
-- what the extension has and gives once updated
CREATE FUNCTION pg_temp.updated(OUT version text, OUT functions bigint, OUT hashids text, OUT sqids text)
LANGUAGE sql AS $$
    SELECT pg_temp.idcodec_version(), pg_temp.idcodec_functions(), hashids_encode(347, 'this is my salt'),
           sqids_encode(ARRAY[1, 2, 3])
$$;
CREATE TEMP TABLE releases (n bigint, release text, installed text, functions bigint, updated_to text,
                            functions_after bigint, hashids text, sqids text);
DROP EXTENSION idcodec CASCADE;
-- every release, oldest first (\gexec runs the statements of each row in turn)
SELECT format('CREATE EXTENSION idcodec VERSION %L', release),
       format('INSERT INTO pg_temp.releases'
              ' SELECT %s, %L, pg_temp.idcodec_version(), pg_temp.idcodec_functions()', n, release),
       'ALTER EXTENSION idcodec UPDATE',
       format('UPDATE pg_temp.releases SET (updated_to, functions_after, hashids, sqids) ='
              ' (SELECT * FROM pg_temp.updated()) WHERE n = %s', n),
       'DROP EXTENSION idcodec'
FROM unnest('{1.0.0,1.1.0,1.2.0,1.3.0,1.4.0,1.5.0,1.5.1,1.6.0,1.6.1}'::text[]) WITH ORDINALITY AS r(release, n)
ORDER BY n \gexec
SELECT release, installed, functions, updated_to, functions_after, hashids, sqids FROM pg_temp.releases ORDER BY n;
-- ... as a fresh install has
CREATE EXTENSION idcodec;
SELECT pg_temp.idcodec_version() AS fresh, pg_temp.idcodec_functions() AS functions;

-- 1.0.0 -> 1.1.0 with a view and a SQL function over cdc_chunks: cdc_chunks gains a parameter, the objects made
-- with the old one keep working (it stays, renamed), and both give the rows they gave before.
DROP EXTENSION idcodec CASCADE;
CREATE EXTENSION idcodec VERSION '1.0.0';
CREATE TABLE upgrade_blob AS SELECT decode(string_agg(md5(i::text), ''), 'hex') AS data FROM generate_series(1, 20000) i;
CREATE VIEW upgrade_chunks AS SELECT c.* FROM upgrade_blob, cdc_chunks(data, min_size => 2048, avg_size => 8192) AS c;
CREATE FUNCTION upgrade_chunk_count(b bytea) RETURNS bigint LANGUAGE sql IMMUTABLE
BEGIN ATOMIC SELECT count(*) FROM cdc_chunks(b, 'rabin', 512, 1024, 8192); END;
CREATE TABLE upgrade_before AS SELECT * FROM upgrade_chunks;
SELECT upgrade_chunk_count(data) AS rabin_chunks_before FROM upgrade_blob;
ALTER EXTENSION idcodec UPDATE;
SELECT extversion, pg_temp.idcodec_functions() FROM pg_extension WHERE extname = 'idcodec';
SELECT p.oid::regprocedure AS function, obj_description(p.oid, 'pg_proc') IS NOT NULL AS has_comment
FROM pg_proc p WHERE p.proname LIKE 'cdc_chunks%' ORDER BY 1::text;
SELECT (SELECT count(*) FROM upgrade_before) AS chunks,
       (SELECT count(*) FROM (SELECT * FROM upgrade_before EXCEPT SELECT * FROM upgrade_chunks) AS d) AS changed,
       (SELECT count(*) FROM (SELECT * FROM upgrade_before
                              EXCEPT SELECT c.* FROM upgrade_blob, cdc_chunks(data, min_size => 2048, avg_size => 8192) AS c) AS d)
           AS changed_through_new_function;
SELECT upgrade_chunk_count(data) AS rabin_chunks_after FROM upgrade_blob;
SELECT sum(length) = length(data) AS level_3_covers_the_data FROM upgrade_blob, cdc_chunks(data, normalization => 3) GROUP BY data;
DROP FUNCTION upgrade_chunk_count(bytea);
DROP VIEW upgrade_chunks;
DROP TABLE upgrade_before, upgrade_blob;
-- without dependents the old function is dropped: the catalog of a fresh install
DROP EXTENSION idcodec;
CREATE EXTENSION idcodec VERSION '1.0.0';
ALTER EXTENSION idcodec UPDATE;
SELECT p.oid::regprocedure AS function FROM pg_proc p WHERE p.proname LIKE 'cdc_chunks%';
