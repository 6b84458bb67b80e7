-- After an example has created its functions (function_search_path.sql): the caller's search path again.
SELECT pg_catalog.set_config('search_path', :'caller_search_path', false) AS caller_search_path \gset
