-- Installing an older version and updating gives the current functions.
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.idcodec_functions() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
    WHERE d.classid = 'pg_proc'::regclass
$$;
DROP EXTENSION idcodec CASCADE;
CREATE EXTENSION idcodec VERSION '0.1.0';
SELECT extversion, pg_temp.idcodec_functions() FROM pg_extension WHERE extname = 'idcodec';
ALTER EXTENSION idcodec UPDATE;
SELECT extversion, pg_temp.idcodec_functions() FROM pg_extension WHERE extname = 'idcodec';
SELECT hashids_encode(347, 'this is my salt') AS hashids, sqids_encode(ARRAY[1, 2, 3]) AS sqids;
