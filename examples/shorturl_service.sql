-- The short-URL service's functions, the one definition that examples/shorturl.sql, examples/tour.sql, the chaos
-- test and the Citus suite load (psql's \ir or -f). They work on a table url_code (code, url, attempt, hits) that
-- each of those creates as it needs (partitioned, distributed, plain) in the schema first on the search path when
-- this file runs, and find it there whatever the caller's search path (function_search_path.sql).
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

-- Following a code counts a hit; an unknown code gives NULL.
-- check-scripts: accept PS004, PS017: url_code is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".resolve(short_code text) RETURNS text LANGUAGE sql
SET search_path FROM CURRENT AS $$
    UPDATE url_code SET hits = hits OPERATOR(pg_catalog.+) 1 WHERE code OPERATOR(pg_catalog.=) short_code RETURNING url
$$;

\ir caller_search_path.sql
