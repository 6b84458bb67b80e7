-- The short-URL service's functions, the one definition that examples/shorturl.sql, examples/tour.sql, the chaos
-- test and the Citus suite load (psql's \ir or -f). They work on a table url_code (code, url, attempt) that each of
-- those creates as it needs (partitioned, distributed, plain) in the schema first on the search path when this file
-- runs, with hit_count (examples/hit_count.sql, loaded before), and find them there whatever the caller's search path
-- (function_search_path.sql).
\ir function_search_path.sql

-- Shortening: a URL already stored keeps its code; otherwise the first free candidate of the URL's MD5 wins, and
-- when all four are taken the next attempt gives four fresh ones.
-- check-scripts: accept PS004, PS016, PS017: url_code and shortcode_candidates are found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".shorten(long_url text, code_length int DEFAULT 8) RETURNS text LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    candidate pg_catalog.text;
BEGIN
    SELECT u.code INTO candidate FROM url_code u WHERE u.url OPERATOR(pg_catalog.=) long_url LIMIT 1;
    IF FOUND THEN
        RETURN candidate;
    END IF;
    FOR attempt IN 0..99 LOOP
        FOREACH candidate IN ARRAY shortcode_candidates(long_url, code_length, attempt) LOOP
            INSERT INTO url_code (code, url, attempt) VALUES (candidate, long_url, attempt)
            ON CONFLICT (code) DO NOTHING;
            IF FOUND THEN
                RETURN candidate;
            END IF;
        END LOOP;
    END LOOP;
    RAISE EXCEPTION 'no free % character code for % after 100 attempts', code_length, long_url;
END $$;

-- Following a code counts a hit (hit_count.sql: the follows of one code do not wait for each other); an unknown
-- code gives NULL.
-- (PL/pgSQL: Citus cannot plan a SQL function's parameter inside a subquery of a distributed table)
-- check-scripts: accept PS004, PS016, PS017: url_code and followed are found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".resolve(short_code text) RETURNS text LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    target pg_catalog.text;
BEGIN
    SELECT u.url INTO target FROM url_code u WHERE u.code OPERATOR(pg_catalog.=) short_code;
    RETURN followed(target, 'url_code', short_code);
END $$;

-- The batch forms: one call, one transaction, the results in the order given (NULL for a NULL element; a NULL array
-- gives NULL).
-- check-scripts: accept PS004, PS016, PS017: shorten is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".shorten(long_urls text[], code_length int DEFAULT 8) RETURNS text[] LANGUAGE sql
STRICT SET search_path FROM CURRENT AS $$
    SELECT COALESCE(pg_catalog.array_agg(CASE WHEN u.url IS NOT NULL THEN shorten(u.url, code_length) END
                                         ORDER BY u.n), '{}')
    FROM pg_catalog.unnest(long_urls) WITH ORDINALITY AS u(url, n)
$$;
-- check-scripts: accept PS004, PS016, PS017: resolve is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".resolve(short_codes text[]) RETURNS text[] LANGUAGE sql
STRICT SET search_path FROM CURRENT AS $$
    SELECT COALESCE(pg_catalog.array_agg(resolve(u.code) ORDER BY u.n), '{}')
    FROM pg_catalog.unnest(short_codes) WITH ORDINALITY AS u(code, n)
$$;

\ir caller_search_path.sql
