-- idcodec 1.6.0: snowflake IDs, 64-bit time-ordered keys. snowflake_generate() makes them in the pgEdge layout on
-- the node numbered by idcodec.node_id; snowflake_timestamp, snowflake_node, snowflake_counter and snowflake_least
-- read the pgEdge, Twitter, Discord, Instagram, Sonyflake and Mastodon layouts and custom ones;
-- snowflake_convert_column takes an identity or serial column over.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.6.0'" to load this file. \quit

-- Snowflake IDs. Generation is VOLATILE (every call a new ID) and PARALLEL SAFE: every process of the server,
-- parallel workers too, takes its IDs from one shared counter.
CREATE FUNCTION snowflake_generate()
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_generate() IS
'new snowflake ID in the pgEdge layout (41 bits of milliseconds since 2023-01-01 UTC, 10 bits of node from idcodec.node_id, 12 bits of counter): unique on the node, increasing';

CREATE FUNCTION snowflake_timestamp(id bigint, layout text DEFAULT 'pgedge')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_snowflake_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_timestamp(bigint, text) IS
'the start of the time unit a snowflake ID holds, under a named layout (pgedge, twitter, discord, instagram, sonyflake, mastodon)';

CREATE FUNCTION snowflake_timestamp(id bigint, epoch timestamptz, unit interval, node_bits integer, counter_bits integer)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'idcodec_snowflake_timestamp_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_timestamp(bigint, timestamptz, interval, integer, integer) IS
'the start of the time unit a snowflake ID holds, under a custom layout: time units since the epoch above node_bits of node above counter_bits of counter';

CREATE FUNCTION snowflake_node(id bigint, layout text DEFAULT 'pgedge')
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_node(bigint, text) IS
'the node (worker, shard or machine) of a snowflake ID under a named layout';

CREATE FUNCTION snowflake_node(id bigint, node_bits integer, counter_bits integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_node_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_node(bigint, integer, integer) IS
'the node of a snowflake ID under a custom layout: the node_bits above its counter_bits';

CREATE FUNCTION snowflake_counter(id bigint, layout text DEFAULT 'pgedge')
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_counter(bigint, text) IS
'the counter (sequence, increment) of a snowflake ID under a named layout';

CREATE FUNCTION snowflake_counter(id bigint, node_bits integer, counter_bits integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'idcodec_snowflake_counter_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_counter(bigint, integer, integer) IS
'the counter of a snowflake ID under a custom layout: its low counter_bits';

CREATE FUNCTION snowflake_least("at" timestamptz, layout text DEFAULT 'pgedge')
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_least'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_least(timestamptz, text) IS
'the least snowflake ID of the time unit holding a time, under a named layout: id >= snowflake_least(t) is an index range';

CREATE FUNCTION snowflake_least("at" timestamptz, epoch timestamptz, unit interval, node_bits integer,
                                counter_bits integer)
RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_snowflake_least_custom'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION snowflake_least(timestamptz, timestamptz, interval, integer, integer) IS
'the least snowflake ID of the time unit holding a time, under a custom layout';

-- Taking a bigint identity or serial column over without touching its rows: the default becomes
-- snowflake_generate() of this extension's schema (looked up at each call, so a relocated extension is found), an
-- identity is dropped (with its sequence), a serial column's sequence is left to whatever else uses it. Runs with the
-- caller's rights: ALTER TABLE asks for ownership of the table. Only tables: the highest value is read from the
-- relation, and a view would run its owner's code with the caller's rights. A partitioned table's partitions change
-- with it; a plain table's inheritance children keep their own defaults.
-- check-scripts: accept IC001: what EXECUTE runs names the table by its regclass, the column with %I, the functions by pg_catalog or by idcodec's schema with %I
CREATE FUNCTION snowflake_convert_column(table_name regclass, column_name name)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $body$
DECLARE
    table_kind pg_catalog."char";
    is_partition pg_catalog.bool;
    only_table pg_catalog.text;
    column_type pg_catalog.oid;
    column_identity pg_catalog."char";
    column_default pg_catalog.text;
    extension_schema pg_catalog.name;
    new_default pg_catalog.text;
    highest pg_catalog.int8;
    lowest_new pg_catalog.int8;
BEGIN
    SELECT c.relkind, c.relispartition INTO table_kind, is_partition
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
    SELECT a.atttypid, a.attidentity, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
      INTO column_type, column_identity, column_default
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
    SELECT n.nspname INTO extension_schema
      FROM pg_catalog.pg_extension e
      JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
     WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec';
    new_default := pg_catalog.format('%I.snowflake_generate()', extension_schema);
    IF column_identity OPERATOR(pg_catalog.<>) '' THEN
        EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I DROP IDENTITY', only_table, table_name,
                                  column_name);
    ELSIF column_default IS NULL OR pg_catalog.pg_get_serial_sequence(table_name::pg_catalog.text, column_name) IS NULL THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" of relation % is neither an identity nor a serial column',
                        column_name, table_name
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    EXECUTE pg_catalog.format('ALTER TABLE %s%s ALTER COLUMN %I SET DEFAULT %s', only_table, table_name, column_name,
                              new_default);
    -- the table is locked by ALTER TABLE: no row can come in between
    EXECUTE pg_catalog.format('SELECT pg_catalog.max(%I) FROM %s', column_name, table_name) INTO highest;
    EXECUTE pg_catalog.format('SELECT %I.snowflake_least(pg_catalog.now(), ''pgedge''::pg_catalog.text)',
                              extension_schema) INTO lowest_new;
    IF highest OPERATOR(pg_catalog.>=) lowest_new THEN
        RAISE EXCEPTION 'snowflake_convert_column: column "%" holds %, not below the snowflake IDs of now',
                        column_name, highest
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = pg_catalog.format('New IDs would start at %s.', lowest_new);
    END IF;
END
$body$;
COMMENT ON FUNCTION snowflake_convert_column(regclass, name) IS
'makes a bigint identity or serial column take snowflake_generate() as its default, its rows untouched (new IDs come above them)';
