-- Every block of test/vectors/chunking.txt through SQL: chunk boundaries (and cut hashes where given) of
-- test/data/SekienAkashita.jpg from fastcdc-rs 4.0.1, the restic chunker 0.4.0 and borg 1.2.4.
\set image `base64 -w0 test/data/SekienAkashita.jpg`
CREATE TEMP TABLE image AS SELECT decode(:'image', 'base64') AS data;
SELECT length(data) AS bytes, encode(sha256(data), 'hex') AS sha256 FROM image;

CREATE TEMP TABLE vector_line (n serial, line text);
\copy vector_line (line) FROM 'test/vectors/chunking.txt' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')

-- blocks: a header '# <algorithm> <numbers>' followed by 'offset length [hash]' lines
CREATE TEMP TABLE block AS
SELECT n, m[1] AS algorithm, string_to_array(m[2], ' ')::bigint[] AS p
FROM vector_line, regexp_match(line, '^# (fastcdc-v2020|fastcdc-v2016|fastcdc-ronomon|restic|borg) ([0-9 ]+)$') AS m
WHERE m IS NOT NULL;
CREATE TEMP TABLE expected AS
SELECT b.n AS block, f[1]::bigint AS start, f[2]::int AS length,
       CASE WHEN f[3] IS NOT NULL THEN (f[3]::numeric - CASE WHEN f[3]::numeric >= 9223372036854775808 THEN 18446744073709551616 ELSE 0 END)::bigint
       END AS cut_hash
FROM vector_line l, string_to_array(l.line, ' ') AS f,
     LATERAL (SELECT max(n) AS n FROM block WHERE block.n < l.n) AS b
WHERE l.line ~ '^[0-9]+ [0-9]+( [0-9]+)?$';

-- each block's call: fastcdc min avg max; restic min max average_bits; borg seed min_exp max_exp mask_bits window
CREATE TEMP TABLE actual AS
SELECT b.n AS block, c.start, c.length, c.cut_hash
FROM block b, image,
     LATERAL cdc_chunks(image.data,
         CASE b.algorithm WHEN 'fastcdc-v2020' THEN 'fastcdc' WHEN 'fastcdc-v2016' THEN 'fastcdc2016'
                          WHEN 'fastcdc-ronomon' THEN 'ronomon' WHEN 'restic' THEN 'rabin' ELSE 'buzhash' END,
         min_size => (CASE WHEN b.algorithm = 'borg' THEN 2 ^ b.p[2] ELSE b.p[1] END)::int,
         avg_size => (CASE b.algorithm WHEN 'borg' THEN 2 ^ b.p[4] WHEN 'restic' THEN 2 ^ b.p[3] ELSE b.p[2] END)::int,
         max_size => (CASE b.algorithm WHEN 'borg' THEN 2 ^ b.p[3] WHEN 'restic' THEN b.p[2] ELSE b.p[3] END)::int,
         seed => CASE WHEN b.algorithm = 'borg' THEN b.p[1] ELSE 0 END,
         window_size => CASE WHEN b.algorithm = 'borg' THEN b.p[5]::int END) AS c;

SELECT b.algorithm, array_to_string(b.p, ' ') AS parameters,
       (SELECT count(*) FROM expected e WHERE e.block = b.n) AS expected_chunks,
       (SELECT count(*) FROM expected e JOIN actual a USING (block, start, length)
        WHERE e.block = b.n AND (e.cut_hash IS NULL OR e.cut_hash = a.cut_hash)) AS matched,
       (SELECT count(*) FROM actual a WHERE a.block = b.n) AS actual_chunks
FROM block b ORDER BY b.n;

-- the buzhash values of borg's buzhash()
SELECT m[1]::bigint AS seed, coalesce(m[2], m[3]) AS input, m[5]::bigint AS expected,
       (SELECT h.hash FROM image, rolling_hash(CASE WHEN m[3] IS NULL THEN substr(image.data, m[2]::int + 1, m[4]::int)
                                                    ELSE convert_to(m[3], 'UTF8') END,
                                               coalesce(m[4]::int, length(m[3])), 'buzhash', m[1]::bigint) AS h
        WHERE h.pos = 0) AS actual
FROM vector_line, regexp_match(line, '^# buzhash seed=([0-9]+) (?:offset=([0-9]+) window=([0-9]+)|bytes=([a-z]+)) -> ([0-9]+)$') AS r,
     LATERAL (SELECT ARRAY[r[1], r[2], r[4], r[3], r[5]] AS m) AS t
WHERE r IS NOT NULL ORDER BY n;
