-- Before an example creates functions (psql's \ir): the search path those functions keep (SET search_path FROM
-- CURRENT) is pg_catalog first, then the schema this runs in (their tables), then idcodec's schema, and pg_temp
-- last, so neither a temporary table nor an operator or function of another schema is ever taken for theirs.
-- The psql variable function_schema names the schema to create them in (pg_catalog comes first on the path now);
-- caller_search_path holds the path to go back to (caller_search_path.sql).
SELECT pg_catalog.current_schema() AS function_schema,
       pg_catalog.current_setting('search_path') AS caller_search_path,
       (SELECT n.nspname FROM pg_catalog.pg_extension e
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
        WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec') AS idcodec_schema \gset
SELECT pg_catalog.set_config('search_path',
           pg_catalog.format('pg_catalog, %I, %I, pg_temp', :'function_schema', :'idcodec_schema'), false)
       AS function_search_path \gset
