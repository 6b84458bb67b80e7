-- The deduplicating store's functions, the one definition that examples/dedup.sql, examples/tour.sql, the chaos
-- test and the Citus suite load (psql's \ir or -f). They work on the tables chunk (digest, data) and file (name,
-- size, chunks) that each of those creates as it needs, in the schema first on the search path when this file
-- runs, and find them there whatever the caller's search path (function_search_path.sql).
\ir function_search_path.sql

-- A file's content-defined chunks with their SHA-256 digests: the one place the store's chunker and sizes are named.
-- (A fixed search path keeps the planner from inlining it; qualified names alone would not be enough here, since
-- idcodec's schema is whichever it was installed in.)
-- check-scripts: accept PS004, PS016: cdc_chunks is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".file_chunks(content bytea) RETURNS TABLE (start bigint, digest bytea, data bytea)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
    SELECT c.start, c.digest, pg_catalog.substr(content, c.start::pg_catalog.int4 OPERATOR(pg_catalog.+) 1, c.length)
    FROM cdc_chunks(content, 'fastcdc', 1024, 4096, 16384, digest => 'sha256') AS c
$$;

-- Storing a file adds only the chunks the store does not have yet; returns the file's size.
-- check-scripts: accept PS004, PS016, PS017: chunk, file and file_chunks are found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".store(file_name text, content bytea) RETURNS bigint LANGUAGE sql
SET search_path FROM CURRENT AS $$
    WITH piece AS MATERIALIZED (
        SELECT * FROM file_chunks(content)
    ), added AS (
        INSERT INTO chunk (digest, data) SELECT DISTINCT ON (digest) digest, data FROM piece
        ON CONFLICT (digest) DO NOTHING
    )
    INSERT INTO file (name, size, chunks)
    VALUES (file_name, pg_catalog.length(content), ARRAY(SELECT digest FROM piece ORDER BY start))
    RETURNING size;
$$;

-- A stored file, put together from its chunks (NULL for a name not stored).
-- check-scripts: accept PS004, PS017: chunk and file are found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".restore(file_name text) RETURNS bytea LANGUAGE sql STABLE
SET search_path FROM CURRENT AS $$
    SELECT (SELECT COALESCE(pg_catalog.string_agg(c.data, ''::pg_catalog.bytea ORDER BY p.ord), ''::pg_catalog.bytea)
            FROM pg_catalog.unnest(f.chunks) WITH ORDINALITY AS p(digest, ord)
            JOIN chunk c ON c.digest OPERATOR(pg_catalog.=) p.digest)
    FROM file f
    WHERE f.name OPERATOR(pg_catalog.=) file_name;
$$;

\ir caller_search_path.sql
