-- idcodec_pg_hashids 1.0.0: the functions of pg_hashids 1.3, with its signatures (positional arguments, no
-- defaults), computed by idcodec: pg_hashids's results wherever pg_hashids is right, idcodec's behaviour where it
-- is not (negative numbers, tampered or foreign IDs, multibyte salts and alphabets, ...).
--
-- If pg_hashids is installed in this schema, its functions are taken over in place: each is moved from pg_hashids
-- to this extension and given the new implementation with CREATE OR REPLACE, so it keeps its OID and every
-- generated column, expression index, view and SQL function that uses it keeps working untouched. Afterwards
-- DROP EXTENSION pg_hashids (without CASCADE) removes only the empty extension.
\echo Use "CREATE EXTENSION idcodec_pg_hashids CASCADE" to load this file. \quit

DO $takeover$
DECLARE
    pg_hashids oid;
    pg_hashids_owner oid;
    pg_hashids_schema name;
    member regprocedure;
BEGIN
    SELECT e.oid, e.extowner, n.nspname INTO pg_hashids, pg_hashids_owner, pg_hashids_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_hashids';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF pg_hashids_schema <> current_schema() THEN
        RAISE EXCEPTION 'pg_hashids is installed in schema %, idcodec_pg_hashids is being installed in %',
                        pg_hashids_schema, current_schema()
            USING HINT = format('CREATE EXTENSION idcodec_pg_hashids SCHEMA %I CASCADE', pg_hashids_schema);
    END IF;
    -- The script may run with raised privileges (a trusted extension): only the role that could drop pg_hashids
    -- may take its functions over.
    IF NOT (pg_has_role(session_user, pg_hashids_owner, 'USAGE')
            OR (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)) THEN
        RAISE EXCEPTION 'only the owner of extension pg_hashids or a superuser can take its functions over';
    END IF;
    FOR member IN
        SELECT p.oid::regprocedure
        FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
        WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
          AND d.refobjid = pg_hashids AND d.deptype = 'e'
          -- pg_hashids 1.3's signatures (unqualified: pg_hashids is in the schema being installed to)
          AND p.oid::regprocedure::text = ANY (ARRAY[
              'hash_encode(bigint)', 'hash_encode(bigint,text)', 'hash_encode(bigint,text,integer)',
              'hash_decode(text,text,integer)', 'id_encode(bigint)', 'id_encode(bigint,text)',
              'id_encode(bigint,text,integer)', 'id_encode(bigint,text,integer,text)', 'id_encode(bigint[])',
              'id_encode(bigint[],text)', 'id_encode(bigint[],text,integer)', 'id_encode(bigint[],text,integer,text)',
              'id_decode(text)', 'id_decode(text,text)', 'id_decode(text,text,integer)',
              'id_decode(text,text,integer,text)', 'id_decode_once(text)', 'id_decode_once(text,text)',
              'id_decode_once(text,text,integer)', 'id_decode_once(text,text,integer,text)'])
    LOOP
        EXECUTE format('ALTER EXTENSION pg_hashids DROP FUNCTION %s', member);
        EXECUTE format('ALTER EXTENSION idcodec_pg_hashids ADD FUNCTION %s', member);
    END LOOP;
END
$takeover$;

CREATE OR REPLACE FUNCTION hash_encode(bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint) IS
'a hashid of a non-negative number (pg_hashids hash_encode)';

CREATE OR REPLACE FUNCTION hash_encode(bigint, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint, text) IS
'a hashid of a non-negative number with a salt (pg_hashids hash_encode)';

CREATE OR REPLACE FUNCTION hash_encode(bigint, text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_encode(bigint, text, int) IS
'a hashid of a non-negative number with a salt and a minimum length (pg_hashids hash_encode)';

CREATE OR REPLACE FUNCTION hash_decode(text, text, int) RETURNS int
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_hash_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hash_decode(text, text, int) IS
'the first number of a hashid as int (pg_hashids hash_decode); NULL when not a hashid, 22003 beyond int';

CREATE OR REPLACE FUNCTION id_encode(bigint) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint) IS
'a hashid of a non-negative number, default salt and alphabet (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text) IS
'a hashid of a non-negative number with a salt (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint, text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text, int) IS
'a hashid of a non-negative number with a salt and a minimum length (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint, text, int, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint, text, int, text) IS
'a hashid of a non-negative number with a salt, a minimum length and an alphabet (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint[]) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[]) IS
'a hashid of a list of non-negative numbers (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint[], text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text) IS
'a hashid of a list of non-negative numbers with a salt (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint[], text, int) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text, int) IS
'a hashid of a list of non-negative numbers with a salt and a minimum length (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_encode(bigint[], text, int, text) RETURNS text
AS 'MODULE_PATHNAME', 'idcodec_hashids_encode_array'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_encode(bigint[], text, int, text) IS
'a hashid of a list of non-negative numbers with a salt, a minimum length and an alphabet (pg_hashids id_encode)';

CREATE OR REPLACE FUNCTION id_decode(text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text) IS
'the numbers of a hashid (pg_hashids id_decode); ''{}'' when not a hashid';

CREATE OR REPLACE FUNCTION id_decode(text, text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text) IS
'the numbers of a hashid made with a salt (pg_hashids id_decode); ''{}'' when not a hashid';

CREATE OR REPLACE FUNCTION id_decode(text, text, int) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text, int) IS
'the numbers of a hashid made with a salt and a minimum length (pg_hashids id_decode); ''{}'' when not a hashid';

CREATE OR REPLACE FUNCTION id_decode(text, text, int, text) RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode(text, text, int, text) IS
'the numbers of a hashid made with a salt, a minimum length and an alphabet (pg_hashids id_decode); ''{}'' when not a hashid';

CREATE OR REPLACE FUNCTION id_decode_once(text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text) IS
'the first number of a hashid (pg_hashids id_decode_once); NULL when not a hashid';

CREATE OR REPLACE FUNCTION id_decode_once(text, text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text) IS
'the first number of a hashid made with a salt (pg_hashids id_decode_once); NULL when not a hashid';

CREATE OR REPLACE FUNCTION id_decode_once(text, text, int) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text, int) IS
'the first number of a hashid made with a salt and a minimum length (pg_hashids id_decode_once); NULL when not a hashid';

CREATE OR REPLACE FUNCTION id_decode_once(text, text, int, text) RETURNS bigint
AS 'MODULE_PATHNAME', 'idcodec_pg_hashids_id_decode_once'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION id_decode_once(text, text, int, text) IS
'the first number of a hashid made with a salt, a minimum length and an alphabet (pg_hashids id_decode_once); NULL when not a hashid';
