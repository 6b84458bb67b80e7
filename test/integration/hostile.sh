#!/usr/bin/env bash
# The systematic hostile battery. For every function of the extensions (read from the catalog, so a new function is
# covered without editing this file) and every argument, each edge value of that argument's type is tried with the
# other arguments valid, one statement per call, so one error cannot hide the next. Passing means: no backend
# crash, no internal error (XX000), nothing slower than the statement timeout, and only documented SQLSTATEs.
set -euo pipefail
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" \
       -c "CREATE EXTENSION IF NOT EXISTS idcodec_pg_hashids"
started=$(psql_q -c "SELECT pg_postmaster_start_time()")
# 55000 and 42704: a named key without idcodec preloaded, and a name missing from the keyring
documented="00000 22023 22003 22004 22P02 54000 55000 42704"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One line per call: "SELECT pg_temp.try(id, description, statement);".
psql_q > "$work/calls.sql" <<'SQL'
WITH edge(type, value) AS (VALUES
    ('text'::regtype, $$''$$), ('text', $$'a'$$), ('text', $$repeat('x', 1000000)$$), ('text', $$repeat('é', 300000)$$),
    ('text', $$(SELECT string_agg(chr(c), '') FROM generate_series(256, 50255) c)$$), ('text', $$'日本語😀'$$),
    ('text', $$E' \t\n'$$), ('text', 'NULL'),
    ('integer', '0'), ('integer', '1'), ('integer', '-1'), ('integer', '255'), ('integer', '256'),
    ('integer', '1000000'), ('integer', '2147483647'), ('integer', '-2147483648'), ('integer', 'NULL'),
    ('bigint', '0'), ('bigint', '1'), ('bigint', '-1'), ('bigint', '4294967296'), ('bigint', '9223372036854775807'),
    ('bigint', '-9223372036854775808'), ('bigint', 'NULL'),
    ('boolean', 'true'), ('boolean', 'false'), ('boolean', 'NULL'),
    ('bytea', $$'\x'$$), ('bytea', $$'\x00'$$), ('bytea', $$decode(repeat('ab', 1000000), 'hex')$$), ('bytea', 'NULL'),
    ('uuid', $$'00000000-0000-0000-0000-000000000000'$$), ('uuid', $$'ffffffff-ffff-ffff-ffff-ffffffffffff'$$),
    ('uuid', 'NULL'),
    ('bigint[]', $$'{}'$$), ('bigint[]', $$'{0}'$$), ('bigint[]', $$'{-1}'$$), ('bigint[]', $$'{1,NULL}'$$),
    ('bigint[]', $$'{{1,2},{3,4}}'$$), ('bigint[]', $$'[0:1]={1,2}'$$), ('bigint[]', $$'[-5:-5]={9223372036854775807}'$$),
    ('bigint[]', $$ARRAY(SELECT generate_series(1::bigint, 100000))$$), ('bigint[]', 'NULL'),
    ('text[]', $$'{}'$$), ('text[]', $$'{""}'$$), ('text[]', $$'{NULL}'$$), ('text[]', $$'{{ab,cd},{ef,gh}}'$$),
    ('text[]', $$'[0:1]={abc,def}'$$), ('text[]', $$ARRAY(SELECT md5(i::text) FROM generate_series(1, 10000) i)$$),
    ('text[]', $$'{日本語,😀😀😀}'$$), ('text[]', 'NULL')
),
-- A valid value for an argument without a default, by name where the name says what it needs, else by type.
valid(name, type, value) AS (VALUES
    ('objectid', 'text'::regtype, $$'4e7020cb7cac81af7136236b'$$), ('hex', 'text', $$'507f1f77bcf86cd799439011'$$),
    ('alphabet', 'text', $$'abcdefghijklmnopqrstuvwxyz0123456789'$$), ('window_size', 'integer', '4'),
    ('k', 'integer', '3'), ('w', 'integer', '4'), ('length', 'integer', '8'),
    ('key', 'bytea', $$'\x2b7e151628aed2a6abf7158809cf4f3c'$$), ('plaintext', 'text', $$'helloworld'$$),
    ('ciphertext', 'text', $$'helloworld'$$), ('key_name', 'text', $$'customers'$$)
),
by_type(type, value) AS (VALUES
    ('text'::regtype, $$'hello world'$$), ('integer', '1'), ('bigint', '42'), ('boolean', 'false'),
    ('bytea', $$'\x68656c6c6f20776f726c64'$$), ('uuid', $$'6ba7b810-9dad-11d1-80b4-00c04fd430c8'$$),
    ('bigint[]', $$'{1,2,3}'$$), ('text[]', $$'{lo,wor}'$$)
),
fn AS (
    SELECT p.oid, p.oid::regprocedure::text AS signature, p.proretset, p.pronargs, p.pronargdefaults
    FROM pg_proc p
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids')
),
arg AS (
    SELECT fn.oid, fn.signature, fn.proretset, a.n, a.type, coalesce(p.proargnames[a.n::int], '$' || a.n) AS name,
           coalesce(CASE WHEN a.n > fn.pronargs - fn.pronargdefaults THEN pg_get_function_arg_default(fn.oid, a.n::int) END,
                    v.value, t.value) AS fine
    FROM fn JOIN pg_proc p ON p.oid = fn.oid
    CROSS JOIN LATERAL unnest(p.proargtypes::regtype[]) WITH ORDINALITY AS a(type, n)
    LEFT JOIN valid v ON v.name = p.proargnames[a.n::int] AND v.type = a.type
    LEFT JOIN by_type t ON t.type = a.type
),
call AS (
    SELECT target.signature, target.name, e.value,
           format('%s(%s)', target.oid::regproc,
                  string_agg(format('(%s)::%s', CASE WHEN a.n = target.n THEN e.value ELSE a.fine END, a.type), ', '
                             ORDER BY a.n)) AS expression,
           target.proretset
    FROM arg target
    JOIN edge e ON e.type = target.type
    JOIN arg a ON a.oid = target.oid
    GROUP BY target.oid, target.signature, target.n, target.name, e.value, target.proretset
)
SELECT format('SELECT pg_temp.try(%s, %L, %L);', row_number() OVER (ORDER BY signature COLLATE "C", name, value),
              signature || ' ' || name || ' => ' || left(value, 60),
              CASE WHEN proretset THEN 'SELECT count(*) FROM ' || expression
                   ELSE 'SELECT length(' || expression || '::text)' END)
FROM call ORDER BY signature COLLATE "C", name, value;
SQL
total=$(wc -l < "$work/calls.sql")

# Each call is its own statement; try() reports its SQLSTATE (00000 when it answered).
{
    cat <<'SQL'
SET statement_timeout = '30s';
CREATE FUNCTION pg_temp.try(id int, description text, statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN id || '|00000|' || description;
EXCEPTION WHEN OTHERS THEN
    RETURN id || '|' || SQLSTATE || '|' || description || '|' || translate(left(SQLERRM, 200), E'\n|', '  ');
END $$;
SQL
    cat "$work/calls.sql"
} > "$work/run.sql"
psql -X -q -At -f "$work/run.sql" > "$work/outcomes" 2> "$work/errors" || true
answered=$(wc -l < "$work/outcomes")

echo "hostile calls: $total generated from the catalog, $answered answered"
cut -d'|' -f2 "$work/outcomes" | sort | uniq -c | awk '{printf "  %s x%s\n", $2, $1}'
failures=0
if [ "$answered" -ne "$total" ]; then
    echo "the session ended early, after call $answered:"; sed -n "$((answered + 1))p" "$work/calls.sql"
    cat "$work/errors" | head -n 5
    failures=$((failures + 1))
fi
while IFS='|' read -r id state description message; do
    case " $documented " in *" $state "*) ;; *)
        echo "call $id: $state from $description: $message"; failures=$((failures + 1)) ;;
    esac
done < "$work/outcomes"
now=$(psql_q -c "SELECT pg_postmaster_start_time()")
if [ "$now" != "$started" ]; then echo "the server restarted during the battery"; failures=$((failures + 1)); fi
psql_q -c "DROP EXTENSION idcodec_pg_hashids"
echo "hostile battery: $failures failures"
[ "$failures" -eq 0 ]
