-- idcodec 1.6.1: snowflake keys that never repeat. The generator's new behaviour is in the library (its IDs never
-- run ahead of the clock, its shared state is in shared memory, a server's life starts above its reservation);
-- this script gives snowflake_convert_column its new checks: it reads the table with a snapshot taken after its lock
-- (refusing a transaction whose snapshot came before), sees every row whatever the row security, compares with the
-- clock rather than the transaction's start, also takes over a column whose default is pgEdge's snowflake.nextval(),
-- and keeps the node's counter above the column's keys through snowflake_generate_above(), new.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.6.1'" to load this file. \quit

-- Keys made by another generator (pgEdge's, a restore) that snowflake_generate() must stay above, even when the clock
-- steps back: snowflake_convert_column gives it the highest key of the column it takes over.
CREATE FUNCTION snowflake_generate_above(id bigint)
RETURNS void
AS 'MODULE_PATHNAME', 'idcodec_snowflake_generate_above'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION snowflake_generate_above(bigint) IS
'makes this node''s snowflake_generate() stay above an existing ID (of a millisecond the clock has passed), even if the clock steps back';

-- Taking a bigint column over without touching its rows: an identity, a serial column, or one whose default is
-- pgEdge's snowflake.nextval() (the same layout). The default becomes snowflake_generate() of this extension's schema
-- (looked up at each call, so a relocated extension is found), an identity is dropped (with its sequence), a serial
-- column's or pgEdge's sequence is left to whatever else uses it. Runs with the caller's rights: ALTER TABLE asks for
-- ownership of the table. Only tables: the highest value is read from the relation, and a view would run its owner's
-- code with the caller's rights. A partitioned table's partitions change with it; a plain table's inheritance
-- children keep their own defaults. Every row is judged: the table is read after ALTER TABLE has locked it, by a
-- snapshot taken then (so only in READ COMMITTED, where each statement takes its own), and with FORCE ROW LEVEL
-- SECURITY lifted for that read (the caller owns the table, which then sees every row); any error rolls it all back.
-- check-scripts: accept PS002: replaces this extension's own function (PostgreSQL refuses to replace one that is not a member of the extension)
-- check-scripts: accept IC001: what EXECUTE runs names the table by its regclass, the column with %I, the functions by pg_catalog or by idcodec's schema with %I
CREATE OR REPLACE FUNCTION snowflake_convert_column(table_name regclass, column_name name)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
    table_kind pg_catalog."char";
    is_partition pg_catalog.bool;
    forces_row_security pg_catalog.bool;
    only_table pg_catalog.text;
    column_number pg_catalog.int2;
    column_type pg_catalog.oid;
    column_identity pg_catalog."char";
    column_default pg_catalog.text;
    from_pgedge pg_catalog.bool;
    extension_schema pg_catalog.name;
    new_default pg_catalog.text;
    highest pg_catalog.int8;
    lowest_new pg_catalog.int8;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation')
           OPERATOR(pg_catalog.<>) ALL (ARRAY['read committed', 'read uncommitted']) THEN
        RAISE EXCEPTION 'snowflake_convert_column: cannot run in a % transaction',
                        pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = 'invalid_transaction_state',
                  DETAIL = 'Its snapshot was taken before the table was locked: rows committed since would not be '
                           'seen, and every row must be.',
                  HINT = 'Run it in a READ COMMITTED transaction (the default).';
    END IF;
    SELECT c.relkind, c.relispartition, c.relrowsecurity AND c.relforcerowsecurity
      INTO table_kind, is_partition, forces_row_security
      FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) table_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'snowflake_convert_column: relation with OID % does not exist', table_name::pg_catalog.oid
            USING ERRCODE = 'undefined_table';
    END IF;
    IF table_kind OPERATOR(pg_catalog.<>) ALL (ARRAY['r', 'p', 'f']::pg_catalog."char"[]) THEN
        RAISE EXCEPTION 'snowflake_convert_column: % is not a table', table_name
            USING ERRCODE = 'wrong_object_type';
    END IF;
    IF is_partition THEN
        RAISE EXCEPTION 'snowflake_convert_column: % is a partition', table_name
            USING ERRCODE = 'wrong_object_type',
                  HINT = 'Convert the column of its partitioned table: every partition takes the new default.';
    END IF;
    only_table := 'ONLY ';
    IF table_kind OPERATOR(pg_catalog.=) 'p' THEN
        only_table := '';
    END IF;
    SELECT a.attnum, a.atttypid, a.attidentity, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
      INTO column_number, column_type, column_identity, column_default
      FROM pg_catalog.pg_attribute a
      LEFT JOIN pg_catalog.pg_attrdef d
        ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
     WHERE a.attrelid OPERATOR(pg_catalog.=) table_name AND a.attname OPERATOR(pg_catalog.=) column_name
       AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" of relation % does not exist', column_name, table_name
            USING ERRCODE = 'undefined_column';
    END IF;
    IF column_type OPERATOR(pg_catalog.<>) 'pg_catalog.int8'::pg_catalog.regtype THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" is of type %, not bigint', column_name,
                        column_type::pg_catalog.regtype
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'Snowflake IDs need 64 bits: change the column''s type to bigint first.';
    END IF;
    -- pgEdge's generator: the default calls the function nextval of the extension named snowflake
    SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 INTO from_pgedge
      FROM pg_catalog.pg_attrdef d
      JOIN pg_catalog.pg_depend called
        ON called.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
       AND called.objid OPERATOR(pg_catalog.=) d.oid
       AND called.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
      JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) called.refobjid
      JOIN pg_catalog.pg_depend member
        ON member.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
       AND member.objid OPERATOR(pg_catalog.=) p.oid
       AND member.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
       AND member.deptype OPERATOR(pg_catalog.=) 'e'
      JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) member.refobjid
     WHERE d.adrelid OPERATOR(pg_catalog.=) table_name AND d.adnum OPERATOR(pg_catalog.=) column_number
       AND e.extname OPERATOR(pg_catalog.=) 'snowflake' AND p.proname OPERATOR(pg_catalog.=) 'nextval';
    SELECT n.nspname INTO extension_schema
      FROM pg_catalog.pg_extension e
      JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
     WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec';
    new_default := pg_catalog.format('%I.snowflake_generate()', extension_schema);
    IF column_identity OPERATOR(pg_catalog.<>) '' THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I DROP IDENTITY', only_table, table_name,
                                  column_name);
    ELSIF column_default IS NULL OR (pg_catalog.pg_get_serial_sequence(table_name::pg_catalog.text, column_name) IS NULL
                                     AND NOT from_pgedge) THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" of relation % is neither an identity nor a serial column',
                        column_name, table_name
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Its default must be an identity, a sequence the column owns, or pgEdge''s snowflake.nextval().';
    END IF;
    EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I SET DEFAULT %s', only_table, table_name, column_name,
                              new_default);
    -- The table is locked by ALTER TABLE: no row can come in between, and this statement's snapshot sees every row
    -- committed before. Row security forced on the owner would hide rows from it: lifted for this read.
    IF forces_row_security THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', table_name);
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s', column_name, table_name) INTO highest;
    IF forces_row_security THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', table_name);
    END IF;
    -- the clock now, not the transaction's start: a key made a moment before the call (pgEdge's) is below it
    EXECUTE pg_catalog.format('SELECT %I.snowflake_least(pg_catalog.clock_timestamp(), ''pgedge''::pg_catalog.text)',
                              extension_schema) INTO lowest_new;
    IF highest OPERATOR(pg_catalog.>=) lowest_new THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" holds %, not below the snowflake IDs of now',
                        column_name, highest
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = pg_catalog.format('New IDs would start at %s.', lowest_new);
    END IF;
    -- the node's counter stays above the column's keys even if the clock steps back (pgEdge's are of a moment ago)
    IF highest OPERATOR(pg_catalog.>) 0 THEN
        EXECUTE pg_catalog.format('SELECT %I.snowflake_generate_above($1)', extension_schema) USING highest;
    END IF;
END
$body$;
COMMENT ON FUNCTION snowflake_convert_column(regclass, name) IS
'makes a bigint identity, serial or pgEdge snowflake.nextval() column take snowflake_generate() as its default, its rows untouched (new IDs come above them)';
