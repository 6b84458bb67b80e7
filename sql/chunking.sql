-- rolling hashes, Rabin-Karp search, content-defined chunking and winnowing
\pset null '(null)'
\i test/regress/error_of.sql

-- Rabin-Karp: sum b_i * 16777619^(w-1-i) mod 2^61-1 (values computed independently with Python big integers)
SELECT * FROM rolling_hash('The quick brown fox jumps over the lazy dog'::bytea, 5) LIMIT 4;
SELECT count(*) AS windows FROM rolling_hash('The quick brown fox jumps over the lazy dog', 5);
SELECT count(*) AS windows FROM rolling_hash('abc', 4);
-- a rolling value is the hash of its window alone, whatever precedes it
SELECT count(*) AS disagreements
FROM (SELECT repeat(md5(i::text), 20) AS t FROM generate_series(1, 5) AS i) AS d,
     (VALUES ('rabin_karp'), ('rabin'), ('buzhash'), ('gear'), ('moving_sum')) AS a(algorithm),
     LATERAL rolling_hash(d.t, 48, a.algorithm) AS r
WHERE r.hash <> (SELECT hash FROM rolling_hash(substr(d.t, r.pos::int + 1, 48), 48, a.algorithm));
SELECT hash AS moving_sum FROM rolling_hash('abcd'::bytea, 3, 'moving_sum');

-- rabin_karp_find: every occurrence, overlapping, 1-based character positions like strpos
SELECT array_agg(p) AS positions FROM rabin_karp_find('aaaa', 'aa') AS p;
SELECT array_agg(p) AS positions FROM rabin_karp_find('日本語の日本語', '本語') AS p;
SELECT strpos('日本語の日本語', '本語') AS strpos;
SELECT array_agg(p) AS positions FROM rabin_karp_find('\x00ff00ff00'::bytea, '\xff00'::bytea) AS p;
SELECT array_agg(p) AS empty_needle FROM rabin_karp_find('abc', '') AS p;
SELECT * FROM rabin_karp_find('the cat sat on the mat', ARRAY['at', 'the', 'dog', 't']);
-- against a naive scan on random multibyte texts
SELECT count(*) AS disagreements FROM (
    SELECT t, n FROM (
        SELECT string_agg(substr('abäö日', (random() * 5)::int + 1, 1), '') AS t
        FROM generate_series(1, 200) AS i, generate_series(1, 40) AS g GROUP BY g) AS h,
        LATERAL (SELECT substr(h.t, (random() * (length(h.t) - 3))::int + 1, (random() * 2)::int + 1) AS n) AS x
) AS c
WHERE ARRAY(SELECT p FROM rabin_karp_find(c.t, c.n) AS p)
      IS DISTINCT FROM ARRAY(SELECT i FROM generate_series(1, length(c.t)) AS i
                             WHERE substr(c.t, i, length(c.n)) = c.n ORDER BY i);

-- winnowing (values computed independently with Python)
SELECT winnow('adorunrunrunadorunrun', 5, 4);
SELECT winnow('ab', 3, 2) AS too_short, winnow('abcd', 2, 10) AS one_window;
-- near-duplicate search: documents sharing fingerprints, found through a GIN index
CREATE TABLE document (id int PRIMARY KEY, body text, fingerprints bigint[]);
INSERT INTO document VALUES
    (1, 'PostgreSQL is a powerful, open source object-relational database system.', NULL),
    (2, 'PostgreSQL is a powerful open-source object relational database system!', NULL),
    (3, 'Content-defined chunking cuts data where its content says so.', NULL);
UPDATE document SET fingerprints = winnow(lower(regexp_replace(body, '\W', '', 'g')), 5, 4);
CREATE INDEX ON document USING gin (fingerprints);
SET enable_seqscan = off;
SELECT d.id, cardinality(ARRAY(SELECT unnest(d.fingerprints) INTERSECT SELECT unnest(q.fingerprints))) AS shared
FROM document d, (SELECT winnow(lower(regexp_replace('postgresql is a powerful open source database', '\W', '', 'g')), 5, 4)
                  AS fingerprints) AS q
WHERE d.fingerprints && q.fingerprints ORDER BY shared DESC, d.id;
RESET enable_seqscan;

-- cdc_chunks: chunks tile the data; the digest column holds each chunk's SHA-256
CREATE TABLE blob AS SELECT string_agg(md5(i::text), '')::bytea AS data FROM generate_series(1, 20000) AS i;
SELECT algorithm, count(*) AS chunks, sum(length) = (SELECT length(data) FROM blob) AS covers,
       bool_and(start + length = coalesce(next_start, start + length)) AS contiguous,
       bool_and(digest = sha256(substr((SELECT data FROM blob), start::int + 1, length))) AS digests
FROM (SELECT a.algorithm, c.*, lead(c.start) OVER (PARTITION BY a.algorithm ORDER BY c.start) AS next_start
      FROM blob, (VALUES ('fastcdc'), ('fastcdc2016'), ('ronomon'), ('rabin'), ('buzhash'), ('moving_sum')) AS a(algorithm),
           LATERAL cdc_chunks(blob.data, a.algorithm, 2048, 8192, 32768,
                              window_size => CASE WHEN a.algorithm = 'buzhash' THEN 48 END, digest => 'sha256') AS c) AS t
GROUP BY algorithm ORDER BY algorithm COLLATE "C";
SELECT count(*) AS no_chunks FROM cdc_chunks(''::bytea);
SELECT count(*) AS null_data FROM cdc_chunks(NULL);

-- errors
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', 'nonsense')$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', min_size => 0)$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', min_size => 9000, avg_size => 8192)$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', 'rabin', avg_size => 10000)$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', digest => 'md5')$$);
SELECT pg_temp.error_of($$SELECT * FROM rolling_hash('abc'::bytea, 0)$$);
SELECT pg_temp.error_of($$SELECT * FROM rolling_hash('abc'::bytea, 2, 'nonsense')$$);
SELECT pg_temp.error_of($$SELECT winnow('abc', 0, 4)$$);
SELECT pg_temp.error_of($$SELECT * FROM rabin_karp_find('abc', ARRAY['a', NULL])$$);
SELECT pg_temp.error_of($$SELECT * FROM rabin_karp_find('abc', ARRAY[['a', 'b'], ['c', 'd']])$$);
SELECT pg_temp.error_of($$SELECT winnow('abc', 5, -2)$$);

-- volatility and parallel safety
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE p.proname IN ('rolling_hash', 'rabin_karp_find', 'cdc_chunks', 'winnow')
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- One rule for seeds: an algorithm without one refuses a non-zero seed, in cdc_chunks as in rolling_hash.
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', 'moving_sum', seed => 12345)$$);
SELECT pg_temp.error_of($$SELECT * FROM rolling_hash('abc'::bytea, 2, 'moving_sum', 12345)$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', 'fastcdc2016', seed => 7)$$);

-- Quoted user text is cut on a character boundary (see compact.sql), for the algorithm and the digest.
SET client_encoding = 'LATIN1';
\set VERBOSITY sqlstate
SELECT * FROM cdc_chunks('abc', 'x' || repeat(chr(233), 40));
SELECT * FROM cdc_chunks('abc', digest => 'x' || repeat(chr(233), 40));
SELECT * FROM rolling_hash('abc'::bytea, 2, 'x' || repeat(chr(233), 40));
\set VERBOSITY default
RESET client_encoding;
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', 'x' || repeat(chr(233), 40))$$);
SELECT pg_temp.error_of($$SELECT * FROM cdc_chunks('abc', digest => 'x' || repeat(chr(233), 40))$$);
