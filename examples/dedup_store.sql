-- The deduplicating store's functions, the one definition that examples/dedup.sql, examples/tour.sql, the chaos
-- test and the Citus suite load (psql's \ir or -f). They work on the tables chunk (digest, data) and file (name,
-- size, chunks) that each of those creates as it needs, in the schema first on the search path when this file runs.

-- A file's content-defined chunks with their SHA-256 digests: the one place the store's chunker and sizes are named.
-- A plain SQL function, so the planner inlines it into the query that calls it.
CREATE FUNCTION file_chunks(content bytea) RETURNS TABLE (start bigint, digest bytea, data bytea)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT c.start, c.digest, substr(content, c.start::int + 1, c.length)
    FROM cdc_chunks(content, 'fastcdc', 1024, 4096, 16384, digest => 'sha256') AS c
$$;

-- Storing a file adds only the chunks the store does not have yet; returns the file's size.
CREATE FUNCTION store(file_name text, content bytea) RETURNS bigint LANGUAGE sql
SET search_path FROM CURRENT AS $$
    WITH piece AS MATERIALIZED (
        SELECT * FROM file_chunks(content)
    ), added AS (
        INSERT INTO chunk (digest, data) SELECT DISTINCT ON (digest) digest, data FROM piece
        ON CONFLICT (digest) DO NOTHING
    )
    INSERT INTO file (name, size, chunks)
    VALUES (file_name, length(content), ARRAY(SELECT digest FROM piece ORDER BY start))
    RETURNING size;
$$;

-- A stored file, put together from its chunks (NULL for a name not stored).
CREATE FUNCTION restore(file_name text) RETURNS bytea LANGUAGE sql STABLE
SET search_path FROM CURRENT AS $$
    SELECT (SELECT coalesce(string_agg(c.data, ''::bytea ORDER BY p.ord), ''::bytea)
            FROM unnest(f.chunks) WITH ORDINALITY AS p(digest, ord) JOIN chunk c USING (digest))
    FROM file f
    WHERE f.name = file_name;
$$;
