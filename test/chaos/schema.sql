-- The chaos driver's workload: a short-URL service with hit counting, rows with generated public IDs, and a
-- deduplicating file store. Every change an operation makes is one statement, so it commits whole or not at all.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idcodec;
DROP SCHEMA IF EXISTS chaos CASCADE;
CREATE SCHEMA chaos;
SET search_path = chaos, public;

CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL UNIQUE, hits bigint NOT NULL DEFAULT 0);
CREATE FUNCTION shorten(long_url text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE candidate text;
BEGIN
    FOR attempt IN 0..99 LOOP
        FOREACH candidate IN ARRAY shortcode_candidates(long_url, 8, attempt) LOOP
            INSERT INTO chaos.url_code (code, url) VALUES (candidate, long_url) ON CONFLICT (code) DO NOTHING;
            IF FOUND THEN RETURN candidate; END IF;
        END LOOP;
    END LOOP;
    RAISE EXCEPTION 'no free code for %', long_url;
END $$;
CREATE FUNCTION resolve(short_code text) RETURNS text LANGUAGE sql AS $$
    UPDATE chaos.url_code SET hits = hits + 1 WHERE code = short_code RETURNING url
$$;

CREATE TABLE account (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'chaos accounts', 8)) STORED UNIQUE
);

CREATE TABLE chunk (digest bytea PRIMARY KEY, data bytea NOT NULL);
CREATE TABLE file (name text PRIMARY KEY, size bigint NOT NULL, chunks bytea[] NOT NULL);
CREATE FUNCTION store(file_name text, content bytea) RETURNS bigint LANGUAGE sql AS $$
    WITH piece AS (
        SELECT c.start, c.digest, substr(content, c.start::int + 1, c.length) AS data
        FROM cdc_chunks(content, 'fastcdc', 1024, 4096, 16384, digest => 'sha256') AS c
    ), added AS (
        INSERT INTO chaos.chunk SELECT DISTINCT ON (digest) digest, data FROM piece ON CONFLICT DO NOTHING
    )
    INSERT INTO chaos.file VALUES (file_name, length(content), ARRAY(SELECT digest FROM piece ORDER BY start))
    RETURNING size;
$$;
CREATE FUNCTION restore(file_name text) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(c.data, ''::bytea ORDER BY p.ord), ''::bytea)
    FROM chaos.file f, unnest(f.chunks) WITH ORDINALITY AS p(digest, ord) JOIN chaos.chunk c USING (digest)
    WHERE f.name = file_name;
$$;
