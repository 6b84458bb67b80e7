-- Every block of test/vectors/fastcdc-levels.txt through SQL: fastcdc-rs 4.0.1 v2020's with_level_and_seed on
-- test/data/SekienAkashita.jpg, as cdc_chunks(..., seed => s, normalization => level) gives them. Seeds are
-- unsigned 64-bit numbers in the file and the same bits as bigint in SQL (2^64-1 is -1).
\set image `base64 -w0 test/data/SekienAkashita.jpg`
CREATE TEMP TABLE image AS SELECT decode(:'image', 'base64') AS data;

CREATE TEMP TABLE vector_line (n serial, line text);
\copy vector_line (line) FROM 'test/vectors/fastcdc-levels.txt' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')

-- blocks: '# fastcdc-v2020 min avg max level seed', then 'offset length hash' lines
CREATE TEMP TABLE block AS
SELECT n, p[1]::int AS min_size, p[2]::int AS avg_size, p[3]::int AS max_size, p[4]::int AS level,
       (p[5] - CASE WHEN p[5] >= 9223372036854775808 THEN 18446744073709551616 ELSE 0 END)::bigint AS seed
FROM vector_line, regexp_match(line, '^# fastcdc-v2020 ([0-9 ]+)$') AS m,
     LATERAL (SELECT string_to_array(m[1], ' ')::numeric[] AS p) AS fields
WHERE m IS NOT NULL;
CREATE TEMP TABLE expected AS
SELECT b.n AS block, f[1]::bigint AS start, f[2]::int AS length,
       (f[3]::numeric - CASE WHEN f[3]::numeric >= 9223372036854775808 THEN 18446744073709551616 ELSE 0 END)::bigint
           AS cut_hash
FROM vector_line l, string_to_array(l.line, ' ') AS f,
     LATERAL (SELECT max(n) AS n FROM block WHERE block.n < l.n) AS b
WHERE l.line ~ '^[0-9]+ [0-9]+ [0-9]+$';

CREATE TEMP TABLE actual AS
SELECT b.n AS block, c.start, c.length, c.cut_hash
FROM block b, image,
     LATERAL cdc_chunks(image.data, 'fastcdc', b.min_size, b.avg_size, b.max_size, seed => b.seed,
                        normalization => b.level) AS c;

SELECT count(*) AS blocks, count(DISTINCT level) AS levels, count(DISTINCT seed) AS seeds,
       count(DISTINCT (min_size, avg_size, max_size)) AS size_triples
FROM block;
-- blocks whose chunks differ in any way (none)
SELECT b.min_size, b.avg_size, b.max_size, b.level, b.seed
FROM block b
WHERE EXISTS (SELECT start, length, cut_hash FROM expected e WHERE e.block = b.n
              EXCEPT SELECT start, length, cut_hash FROM actual a WHERE a.block = b.n)
   OR EXISTS (SELECT start, length, cut_hash FROM actual a WHERE a.block = b.n
              EXCEPT SELECT start, length, cut_hash FROM expected e WHERE e.block = b.n)
ORDER BY b.n;
SELECT (SELECT count(*) FROM expected) AS expected_chunks,
       (SELECT count(*) FROM expected e JOIN actual a USING (block, start, length, cut_hash)) AS matched;

-- the defaults are level 1 and seed 0: the same chunks as before normalization existed
SELECT count(*) AS differing_chunks
FROM (SELECT start, length, cut_hash FROM image, cdc_chunks(image.data)
      EXCEPT SELECT start, length, cut_hash FROM image, cdc_chunks(image.data, seed => 0, normalization => 1)) AS d;
-- the level and seed only for fastcdc; a NULL level gives no rows
\set VERBOSITY terse
SELECT count(*) FROM image, cdc_chunks(image.data, 'fastcdc', normalization => 4);
SELECT count(*) FROM image, cdc_chunks(image.data, 'fastcdc', normalization => -1);
SELECT count(*) FROM image, cdc_chunks(image.data, 'fastcdc2016', normalization => 2);
SELECT count(*) FROM image, cdc_chunks(image.data, 'rabin', 512, 1024, 8192, normalization => 0);
SELECT count(*) FROM image, cdc_chunks(image.data, 'ronomon', seed => 1);
SELECT count(*) FROM image, cdc_chunks(image.data, normalization => NULL);
