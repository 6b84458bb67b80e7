-- Parallel plans: the workers of a Gather evaluate idcodec calls, and the results equal the serial plan's.
CREATE TABLE parallel_rows AS
SELECT i::bigint AS id, md5(i::text) AS h, decode(md5(i::text) || md5((-i)::text), 'hex') AS data
FROM generate_series(1, 200000) i;
ANALYZE parallel_rows;
CREATE FUNCTION pg_temp.workers_launched(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line ~ 'Workers Launched' THEN RETURN substring(line FROM '[0-9]+')::int; END IF;
    END LOOP;
    RETURN 0;
END $$;
-- One aggregate over every family; hashtext keeps the result a number that partial aggregates can sum.
CREATE VIEW parallel_query AS
SELECT count(*) AS n,
       sum(hashtext(hashids_encode(id, 'parallel', 8)))
           + sum(hashids_decode_one(hashids_encode(id, 'parallel', 8), 'parallel', 8)) AS hashids,
       sum(hashtext(sqids_encode(id))) + sum((sqids_decode(sqids_encode(id), canonical => true))[1]) AS sqids,
       sum(hashtext(objectid_compress(left(h, 24)))) + sum(hashtext(uuid_compress(h::uuid))) AS compact,
       sum(hashtext(base62_mixup(id))) + sum(hashtext(array_to_string(shortcode_candidates(h), ''))) AS codes,
       sum(cardinality(winnow(h, 4, 4))) AS winnow
FROM parallel_rows;
-- A set-returning function in a lateral join runs in the workers too.
CREATE VIEW parallel_chunks AS
SELECT count(*) AS chunks, sum(c.cut_hash % 1000) AS cut_hashes
FROM parallel_rows r, cdc_chunks(r.data, 'rabin', 64, 256, 1024) c;

SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;  -- every row is computed by a worker
EXPLAIN (COSTS OFF) SELECT * FROM parallel_query;
EXPLAIN (COSTS OFF) SELECT * FROM parallel_chunks;
SELECT pg_temp.workers_launched('SELECT * FROM parallel_query') > 0 AS workers_launched,
       pg_temp.workers_launched('SELECT * FROM parallel_chunks') > 0 AS workers_launched_chunks;
CREATE TEMP TABLE parallel_result AS SELECT * FROM parallel_query, parallel_chunks;

SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT * FROM parallel_query, parallel_chunks;
SELECT (SELECT p FROM parallel_result p) = (SELECT s FROM (SELECT * FROM parallel_query, parallel_chunks) s)
           AS parallel_equals_serial,
       (SELECT n FROM parallel_result) AS rows, (SELECT chunks FROM parallel_result) AS one_chunk_per_row;
RESET ALL;
DROP VIEW parallel_query, parallel_chunks;
DROP TABLE parallel_rows;
