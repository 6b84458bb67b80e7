-- idcodec 1.1.0: cdc_chunks takes FastCDC's normalization level (normalization => 0 to 3, default 1) and, for
-- 'fastcdc', a seed, as fastcdc-rs's with_level_and_seed does. Every call that worked before gives the same rows.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.1.0'" to load this file. \quit

-- A new parameter needs a new function. Views and SQL functions hold the old one by its OID and cannot be moved to
-- the new one, so where any depends on it, the old one stays, renamed, and they go on working unchanged; otherwise
-- it is dropped, and the catalog is the same as a fresh install's.
DO $update$
DECLARE
    old_function regprocedure := 'cdc_chunks(bytea, text, int, int, int, bigint, int, text)';
BEGIN
    IF EXISTS (SELECT FROM pg_catalog.pg_depend
               WHERE refclassid = 'pg_catalog.pg_proc'::regclass AND refobjid = old_function AND deptype = 'n') THEN
        ALTER FUNCTION cdc_chunks(bytea, text, int, int, int, bigint, int, text) RENAME TO cdc_chunks_1_0;
        COMMENT ON FUNCTION cdc_chunks_1_0(bytea, text, int, int, int, bigint, int, text) IS
        'cdc_chunks as idcodec 1.0.0 declared it, kept for the views and functions that use it: the same rows as cdc_chunks';
    ELSE
        DROP FUNCTION cdc_chunks(bytea, text, int, int, int, bigint, int, text);
    END IF;
END
$update$;

CREATE FUNCTION cdc_chunks(data bytea, algorithm text DEFAULT 'fastcdc', min_size int DEFAULT 4096,
                           avg_size int DEFAULT 16384, max_size int DEFAULT 65536, seed bigint DEFAULT 0,
                           window_size int DEFAULT NULL, digest text DEFAULT NULL, normalization int DEFAULT 1)
RETURNS TABLE(start bigint, length int, cut_hash bigint, digest bytea)
AS 'MODULE_PATHNAME', 'idcodec_cdc_chunks'
LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION cdc_chunks(bytea, text, int, int, int, bigint, int, text, int) IS
'content-defined chunks (start is 0-based): fastcdc (fastcdc-rs 4.0.1 v2020, with normalization level 0-3 and seed), fastcdc2016, ronomon, rabin (restic), buzhash (borg 1.2), moving_sum (gzip --rsyncable); digest => ''sha256'' fills the digest column';
