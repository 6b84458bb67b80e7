-- Three classic short-URL systems, rebuilt the PostgreSQL way. Runs in any database with idcodec;
-- sql/shorturl.sql runs it as a regression test.
\set schema shorturl
\ir fresh_schema.sql

-- 1. Sequential ids hidden behind a shuffled alphabet and a rotation. The code is a generated column,
--    so it can never disagree with the id, and it is unique, so lookups by code use an index.
CREATE TABLE link (
    id bigint GENERATED ALWAYS AS IDENTITY (START WITH 1000000) PRIMARY KEY,
    url text NOT NULL,
    code text GENERATED ALWAYS AS (
        base62_mixup(id, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut')) STORED UNIQUE
);
INSERT INTO link (url) VALUES ('https://www.postgresql.org/docs/current/xfunc-c.html'),
                              ('https://www.postgresql.org/docs/current/sql-createfunction.html'),
                              ('https://www.postgresql.org/docs/current/ddl-partitioning.html');
SELECT id, code, url FROM link ORDER BY id;
-- the code alone gives the id back, without a lookup
SELECT code, base62_unmixup(code, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut') AS id
FROM link ORDER BY id;

-- Following a link counts a hit, in hit_count (examples/hit_count.sql): the follows of a viral link do not wait for
-- each other.
\ir hit_count.sql
\ir function_search_path.sql
-- check-scripts: accept PS004, PS016, PS017: link and followed are found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".follow(short_code text) RETURNS text LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    target pg_catalog.text;
BEGIN
    SELECT l.url INTO target FROM link l WHERE l.code OPERATOR(pg_catalog.=) short_code;
    RETURN followed(target, 'link', short_code);
END $$;
\ir caller_search_path.sql

-- A view exposing public codes only, never the sequential id, with the exact hit counts
CREATE VIEW public_link AS SELECT code, url, hits_of('link', code) AS hits FROM link;
SELECT follow(code) FROM link WHERE id = 1000001;
SELECT follow(code) FROM link WHERE id = 1000001;
SELECT follow('no such code');
SELECT code, hits FROM public_link ORDER BY code;

-- 2. Codes cut from the URL's MD5 (four candidates per attempt), stored in a table partitioned by the
--    code's first character: 62 tables as one partitioned table. Range partitions on a "C"-collated
--    column keep the unique key on the code itself, so INSERT ... ON CONFLICT detects collisions.
CREATE TABLE url_code (
    code text COLLATE "C" NOT NULL,
    url text NOT NULL,
    attempt int NOT NULL,
    PRIMARY KEY (code)
) PARTITION BY RANGE (code);
DO $$
DECLARE c text;
BEGIN
    FOREACH c IN ARRAY regexp_split_to_array('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', '') LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF url_code FOR VALUES FROM (%L) TO (%L)',
                       'url_code_' || ascii(c), c, chr(ascii(c) + 1));
    END LOOP;
END $$;
CREATE INDEX ON url_code (url);

-- Shortening (a stored URL keeps its code; the first free candidate wins, then fresh attempts) and resolving.
\ir shorturl_service.sql

SELECT shorten('http://www.sina.com.cn/') AS code, shorten('http://www.sina.com.cn/') AS same_again;
SELECT resolve('GgalHkii'), resolve('GgalHkii'), resolve('nothing here');
SELECT code, url, hits_of('url_code', code) AS hits FROM url_code WHERE code = 'GgalHkii';
-- The seed's batch calls: arrays in, arrays out in the same order, NULL for an unknown code (and for a NULL).
SELECT shorten(ARRAY['http://www.sina.com.cn/', NULL]) AS codes;
SELECT resolve(ARRAY['GgalHkii', 'nothing here', 'GgalHkii', NULL]) AS urls;
SELECT hits_of('url_code', 'GgalHkii') AS hits_after_the_batch, resolve('{}'::text[]) AS none;

-- One-character codes leave only 62 possibilities: shortening 60 URLs collides more and more, and every URL still
-- gets its own code, through the other candidates and then through further attempts.
SELECT count(shorten('https://example.com/page/' || i, 1)) FROM generate_series(1, 60) AS i;
SELECT count(*) AS urls, count(DISTINCT code) AS codes,
       count(*) FILTER (WHERE code <> (shortcode_candidates(url, 1))[1]) AS not_first_choice,
       count(*) FILTER (WHERE attempt > 0) AS needed_a_retry, max(attempt) AS most_attempts
FROM url_code WHERE url LIKE 'https://example.com/page/%';
-- rows land in the partition of their first character
SELECT count(DISTINCT tableoid) AS partitions_used, count(*) AS rows, count(*) FILTER (WHERE tableoid::regclass::text
       <> 'url_code_' || ascii(left(code, 1))) AS misplaced FROM url_code;

-- 3. Documents keyed by MongoDB ObjectId, with a 16-character public id and the creation time,
--    both derived from the ObjectId.
CREATE TABLE mongo_document (
    objectid text PRIMARY KEY CHECK (objectid ~ '^[0-9a-f]{24}$'),
    body jsonb NOT NULL,
    public_id text GENERATED ALWAYS AS (objectid_compress(objectid)) STORED UNIQUE,
    created timestamptz GENERATED ALWAYS AS (objectid_timestamp(objectid)) STORED
);
INSERT INTO mongo_document (objectid, body) VALUES
    ('4e7020cb7cac81af7136236b', '{"hotel": "Harbour View"}'),
    ('507f1f77bcf86cd799439011', '{"hotel": "another"}');
SELECT public_id, created AT TIME ZONE 'UTC' AS created_utc, body FROM mongo_document ORDER BY created;
SELECT body FROM mongo_document WHERE objectid = objectid_decompress('jD0wOTOIwqZNdydH');

RESET search_path;
