-- Hit counts that the follows of one popular code do not serialize on, the one definition that examples/shorturl.sql,
-- examples/tour.sql, the chaos test and the Citus suite load (psql's \ir or -f), before the functions that count.
--
-- Adding 1 to a counter row takes that row's lock until the transaction commits, so every follow of a viral link
-- would wait for the one before it. Here a code's count is spread over rows of hit_count: its shared row (xact 0),
-- which one transaction at a time adds to (the one holding the code's advisory lock, taken without waiting), and a
-- row of its own for each transaction that found that lock taken (keyed by its transaction ID, so no other
-- transaction ever writes it). No follow waits for another.
--
-- The count is the sum of the code's rows, exact at any moment: every committed hit is in exactly one row, and the
-- transaction that holds the shared row also moves the other rows into it (a fold, in one statement: a reader sees
-- the rows before it or after it, never a hit twice or not at all). It can only see the rows of transactions that
-- have ended, which nothing writes again, so the fold waits for no one either. A code so keeps about as many rows as
-- follows arrive while its shared row is held, with no job to schedule. A hit is counted by its own transaction: once
-- that commits, a crash cannot lose it.
--
-- Its table and functions are created in the schema first on the search path, and find hit_count there whatever the
-- caller's search path (function_search_path.sql). The advisory locks are the two-key form, keyed by hashes of what is
-- counted and of the code: another use of that form may meet one, which only sends a hit to a row of its own.
\ir function_search_path.sql

CREATE TABLE :"function_schema".hit_count (
    code text NOT NULL,
    counted text NOT NULL,  -- what the code names: 'link', 'url_code', ... (codes of different tables may be equal)
    xact xid8 NOT NULL,     -- 0 for the code's shared row, else the transaction that added the row's hits
    hits bigint NOT NULL,
    PRIMARY KEY (code, counted, xact)
);

-- count_hit(counted, code): one hit more.
-- check-scripts: accept PS004, PS016, PS017: hit_count is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".count_hit(counted text, code text) RETURNS void LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
#variable_conflict use_column
BEGIN
    IF pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext(counted), pg_catalog.hashtext(code)) THEN
        -- the shared row, with the code's other rows folded in
        WITH folded AS (
            DELETE FROM hit_count h
            WHERE h.code OPERATOR(pg_catalog.=) count_hit.code AND h.counted OPERATOR(pg_catalog.=) count_hit.counted
              AND h.xact OPERATOR(pg_catalog.<>) '0'::pg_catalog.xid8
            RETURNING h.hits)
        INSERT INTO hit_count AS shared (code, counted, xact, hits)
        SELECT count_hit.code, count_hit.counted, '0'::pg_catalog.xid8,
               1 OPERATOR(pg_catalog.+) COALESCE(pg_catalog.sum(hits), 0)
        FROM folded
        ON CONFLICT (code, counted, xact) DO UPDATE SET hits = shared.hits OPERATOR(pg_catalog.+) excluded.hits;
    ELSE
        -- another transaction holds the shared row: a row of this transaction's own
        INSERT INTO hit_count AS mine (code, counted, xact, hits)
        VALUES (count_hit.code, count_hit.counted, pg_catalog.pg_current_xact_id(), 1)
        ON CONFLICT (code, counted, xact) DO UPDATE SET hits = mine.hits OPERATOR(pg_catalog.+) 1;
    END IF;
END $$;

-- followed(url, counted, code): what a follow returns, the code's URL (NULL for an unknown code), with its hit counted
-- when the code was found.
-- check-scripts: accept PS004, PS016, PS017: count_hit is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".followed(url text, counted text, code text) RETURNS text LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    IF url IS NOT NULL THEN
        PERFORM count_hit(counted, code);
    END IF;
    RETURN url;
END $$;

-- hits_of(counted, code): the exact count.
-- check-scripts: accept PS004, PS017: hit_count is found on the search path set above (FROM CURRENT)
CREATE FUNCTION :"function_schema".hits_of(counted text, code text) RETURNS bigint LANGUAGE sql STABLE
SET search_path FROM CURRENT AS $$
    SELECT COALESCE(pg_catalog.sum(h.hits), 0)::bigint FROM hit_count h
    WHERE h.code OPERATOR(pg_catalog.=) hits_of.code AND h.counted OPERATOR(pg_catalog.=) hits_of.counted
$$;

\ir caller_search_path.sql
