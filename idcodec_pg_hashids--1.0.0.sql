-- idcodec_pg_hashids 1.0.0: the functions of pg_hashids 1.3, with its signatures (positional arguments, no
-- defaults), computed by idcodec: pg_hashids's results wherever pg_hashids is right, idcodec's behaviour where it
-- is not (negative numbers, tampered or foreign IDs, multibyte salts and alphabets, ...).
--
-- If pg_hashids is installed in this schema, its functions are taken over in place: each is moved from pg_hashids
-- to this extension and given the new implementation with CREATE OR REPLACE, so it keeps its OID and every
-- generated column, expression index, view and SQL function that uses it keeps working untouched. Afterwards
-- DROP EXTENSION pg_hashids (without CASCADE) removes only the empty extension.
\echo Use "CREATE EXTENSION idcodec_pg_hashids CASCADE" to load this file. \quit

-- PostgreSQL lets CREATE EXTENSION name any schema, and this script runs as a superuser (the extension is trusted):
-- it creates nothing where the role installing it could not create objects itself (pg_catalog, another's schema).
DO $schema$
BEGIN
    IF NOT pg_catalog.has_schema_privilege(
               (SELECT e.extowner FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idcodec_pg_hashids'),
               pg_catalog.current_schema(), 'CREATE') THEN
        RAISE EXCEPTION 'permission denied for schema %', pg_catalog.current_schema()
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Install idcodec_pg_hashids into a schema where you may create objects.';
    END IF;
END
$schema$;

-- The script runs as a superuser (also when a database owner installs it: the extension is trusted), in a schema
-- whose owner may have put operators and functions of his own there: every operator, function, type and relation
-- below is pg_catalog's, named so.
-- check-scripts: accept IC001: EXECUTE moves each pg_hashids member by its regprocedure text (a lookup by exact signature; nothing is called)
DO $takeover$
DECLARE
    pg_hashids pg_catalog.oid;
    pg_hashids_owner pg_catalog.oid;
    pg_hashids_schema pg_catalog.name;
    member pg_catalog.regprocedure;
BEGIN
    SELECT e.oid, e.extowner, n.nspname INTO pg_hashids, pg_hashids_owner, pg_hashids_schema
    FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'pg_hashids';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF pg_hashids_schema OPERATOR(pg_catalog.<>) pg_catalog.current_schema() THEN
        RAISE EXCEPTION 'pg_hashids is installed in schema %, idcodec_pg_hashids is being installed in %',
                        pg_hashids_schema, pg_catalog.current_schema()
            USING HINT = pg_catalog.format('CREATE EXTENSION idcodec_pg_hashids SCHEMA %I CASCADE', pg_hashids_schema);
    END IF;
    -- The script may run with raised privileges (a trusted extension): only the role that could drop pg_hashids
    -- may take its functions over.
    IF NOT (pg_catalog.pg_has_role(session_user, pg_hashids_owner, 'USAGE')
            OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) session_user)) THEN
        RAISE EXCEPTION 'only the owner of extension pg_hashids or a superuser can take its functions over';
    END IF;
    FOR member IN
        SELECT p.oid::pg_catalog.regprocedure
        FROM pg_catalog.pg_depend d
        JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
          AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.refobjid OPERATOR(pg_catalog.=) pg_hashids
          AND d.deptype OPERATOR(pg_catalog.=) 'e'
          -- pg_hashids 1.3's signatures (unqualified: pg_hashids is in the schema being installed to)
          AND p.oid::pg_catalog.regprocedure::pg_catalog.text OPERATOR(pg_catalog.=) ANY (ARRAY[
              'hash_encode(bigint)', 'hash_encode(bigint,text)', 'hash_encode(bigint,text,integer)',
              'hash_decode(text,text,integer)', 'id_encode(bigint)', 'id_encode(bigint,text)',
              'id_encode(bigint,text,integer)', 'id_encode(bigint,text,integer,text)', 'id_encode(bigint[])',
              'id_encode(bigint[],text)', 'id_encode(bigint[],text,integer)', 'id_encode(bigint[],text,integer,text)',
              'id_decode(text)', 'id_decode(text,text)', 'id_decode(text,text,integer)',
              'id_decode(text,text,integer,text)', 'id_decode_once(text)', 'id_decode_once(text,text)',
              'id_decode_once(text,text,integer)', 'id_decode_once(text,text,integer,text)'])
    LOOP
        EXECUTE pg_catalog.format('ALTER EXTENSION pg_hashids DROP FUNCTION %s', member);
        EXECUTE pg_catalog.format('ALTER EXTENSION idcodec_pg_hashids ADD FUNCTION %s', member);
    END LOOP;
END
$takeover$;

-- CREATE OR REPLACE, so a function taken over keeps its OID. Each function below is by now either a member of this
-- extension (taken over above) or new: PostgreSQL refuses to replace, in an extension's script, a function that is
-- not a member of that extension, so none planted by someone else can be taken.

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION hash_encode(bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint) IS
'a hashid of a non-negative number (pg_hashids hash_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION hash_encode(bigint, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint, text) IS
'a hashid of a non-negative number with a salt (pg_hashids hash_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION hash_encode(bigint, text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint, text, int) IS
'a hashid of a non-negative number with a salt and a minimum length (pg_hashids hash_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION hash_decode(text, text, int) RETURNS int
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_hash_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_decode(text, text, int) IS
'the first number of a hashid as int (pg_hashids hash_decode); NULL when not a hashid, 22003 beyond int';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint) IS
'a hashid of a non-negative number, default salt and alphabet (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text) IS
'a hashid of a non-negative number with a salt (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint, text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text, int) IS
'a hashid of a non-negative number with a salt and a minimum length (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint, text, int, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text, int, text) IS
'a hashid of a non-negative number with a salt, a minimum length and an alphabet (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint[]) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[]) IS
'a hashid of a list of non-negative numbers (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint[], text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text) IS
'a hashid of a list of non-negative numbers with a salt (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint[], text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text, int) IS
'a hashid of a list of non-negative numbers with a salt and a minimum length (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_encode(bigint[], text, int, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text, int, text) IS
'a hashid of a list of non-negative numbers with a salt, a minimum length and an alphabet (pg_hashids id_encode)';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode(text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text) IS
'the numbers of a hashid (pg_hashids id_decode); ''{}'' when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode(text, text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text) IS
'the numbers of a hashid made with a salt (pg_hashids id_decode); ''{}'' when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode(text, text, int) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text, int) IS
'the numbers of a hashid made with a salt and a minimum length (pg_hashids id_decode); ''{}'' when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode(text, text, int, text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text, int, text) IS
'the numbers of a hashid made with a salt, a minimum length and an alphabet (pg_hashids id_decode); ''{}'' when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode_once(text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text) IS
'the first number of a hashid (pg_hashids id_decode_once); NULL when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode_once(text, text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text) IS
'the first number of a hashid made with a salt (pg_hashids id_decode_once); NULL when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode_once(text, text, int) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text, int) IS
'the first number of a hashid made with a salt and a minimum length (pg_hashids id_decode_once); NULL when not a hashid';

-- check-scripts: accept PS002: a member of this extension (taken over above) or a new function
CREATE OR REPLACE FUNCTION id_decode_once(text, text, int, text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text, int, text) IS
'the first number of a hashid made with a salt, a minimum length and an alphabet (pg_hashids id_decode_once); NULL when not a hashid';
