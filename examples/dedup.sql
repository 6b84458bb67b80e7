-- A deduplicating store inside PostgreSQL: content-defined chunks keyed by their SHA-256, files as arrays of
-- chunk digests. Runs in any database with idcodec; sql/dedup.sql runs it as a regression test.
\set schema dedup
\ir fresh_schema.sql

CREATE TABLE chunk (
    digest bytea PRIMARY KEY,
    data bytea NOT NULL
);
CREATE TABLE file (
    name text PRIMARY KEY,
    size bigint NOT NULL,
    chunks bytea[] NOT NULL  -- digests, in order
);

-- store(name, content) adds only the chunks the store does not have yet; restore(name) gives the file back.
\ir dedup_store.sql

-- Two versions of a document: the second has a paragraph inserted near the start and one line changed.
CREATE TABLE version AS
SELECT 1 AS v, convert_to(string_agg(format('Line %s: %s', i, md5(i::text)), E'\n' ORDER BY i), 'UTF8') AS content
FROM generate_series(1, 3000) AS i;
INSERT INTO version
SELECT 2, convert_to(string_agg(CASE WHEN i = 2000 THEN 'Line 2000: this line was edited'
                                     ELSE format('Line %s: %s', i, md5(i::text)) END, E'\n' ORDER BY i), 'UTF8')
FROM (SELECT i FROM generate_series(1, 3000) AS i UNION ALL SELECT 10.5) AS s(i);
UPDATE version SET content = overlay(content PLACING convert_to(E'A new paragraph, inserted near the start.\n', 'UTF8')
                                     FROM 500 FOR 0) WHERE v = 2;

SELECT store('report-v1.txt', content) FROM version WHERE v = 1;
SELECT store('report-v2.txt', content) FROM version WHERE v = 2;

-- Both versions come back byte for byte ...
SELECT name, size, restore(name) = (SELECT content FROM version WHERE v = right(split_part(name, '.', 1), 1)::int)
       AS restored
FROM file ORDER BY name;
-- ... while most chunks are shared: an insertion only changes the chunks around it.
SELECT (SELECT sum(size) FROM file) AS bytes_in_files,
       (SELECT sum(length(data)) FROM chunk) AS bytes_stored,
       (SELECT count(*) FROM chunk) AS distinct_chunks,
       (SELECT sum(cardinality(chunks)) FROM file) AS chunk_references,
       round(100 * (1 - (SELECT sum(length(data)) FROM chunk)::numeric / (SELECT sum(size) FROM file)), 1)
           AS percent_saved;
-- The chunks only version 2 needed
SELECT count(*) AS new_in_v2
FROM unnest((SELECT chunks FROM file WHERE name = 'report-v2.txt')) AS d
WHERE NOT d = ANY ((SELECT chunks FROM file WHERE name = 'report-v1.txt')::bytea[]);

RESET search_path;
