#!/usr/bin/env bash
# The systematic hostile battery. For every function of the extensions (read from the catalog, so a new function is
# covered without editing this file) and every argument, each edge value of that argument's type is tried with the
# other arguments valid (a function without arguments is called once), one statement per call, so one error cannot
# hide the next. Passing means: no backend crash, no internal error (XX000), nothing slower than the statement
# timeout, and only documented SQLSTATEs.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" \
       -c "CREATE EXTENSION IF NOT EXISTS idcodec_pg_hashids"
started=$(psql_q -c "SELECT pg_postmaster_start_time()")
# 55000 and 42704: a named key without idcodec preloaded, and a name missing from the keyring; 22008: a time
# outside what version 7 UUIDs and ULIDs hold; 42P01, 42703, 42804 and 42809: a table, column, column type or
# relation kind that snowflake_convert_column cannot take over
documented="00000 22023 22003 22004 22P02 22008 54000 55000 42704 42P01 42703 42804 42809"
work=$(mktemp -d)
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'rm -rf "$work"; if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT

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
    ('text[]', $$'{日本語,😀😀😀}'$$), ('text[]', 'NULL'),
    ('cstring', $$''$$), ('cstring', $$'a'$$), ('cstring', $$repeat('x', 1000000)$$), ('cstring', $$E' \t\n'$$),
    ('cstring', $$'日本語😀'$$), ('cstring', $$'01ARZ3NDEKTSV4RRFFQ69G5FAV'$$), ('cstring', $$'8ZZZZZZZZZZZZZZZZZZZZZZZZZ'$$),
    ('cstring', $$'_01h455vb4pex5vsknk084sn02q'$$), ('cstring', $$repeat('a', 64) || '_01h455vb4pex5vsknk084sn02q'$$),
    ('cstring', 'NULL'),
    ('ulid', $$'00000000000000000000000000'$$), ('ulid', $$'7ZZZZZZZZZZZZZZZZZZZZZZZZZ'$$), ('ulid', 'NULL'),
    ('typeid', $$'00000000000000000000000000'$$), ('typeid', $$repeat('x', 63) || '_7zzzzzzzzzzzzzzzzzzzzzzzzz'$$),
    ('typeid', 'NULL'),
    ('timestamp with time zone', $$'infinity'$$), ('timestamp with time zone', $$'-infinity'$$),
    ('timestamp with time zone', $$'1970-01-01 00:00:00+00'$$), ('timestamp with time zone', $$'1969-12-31 23:59:59.999999+00'$$),
    ('timestamp with time zone', $$'10889-08-02 05:31:50.655+00'$$), ('timestamp with time zone', $$'10889-08-02 05:31:50.656+00'$$),
    ('timestamp with time zone', $$'4713-11-24 00:00:00+00 BC'$$), ('timestamp with time zone', $$'294276-12-31 23:59:59+00'$$),
    ('timestamp with time zone', 'NULL'),
    ('interval', $$'0'$$), ('interval', $$make_interval(years => 1970 - extract(year FROM clock_timestamp())::int)$$),
    ('interval', $$timestamptz '1969-12-31 23:59:59.999999+00' - clock_timestamp()$$), ('interval', $$'8800 years'$$),
    ('interval', $$'178000000 years'$$), ('interval', $$'-2147483648 months -2147483648 days'$$),
    -- infinite intervals exist from PostgreSQL 17 on
    ('interval', $$CASE WHEN current_setting('server_version_num')::int >= 170000 THEN 'infinity' ELSE '1 day' END$$),
    ('interval', 'NULL'),
    -- hostile_keys: a table of the session (made below), whose identity column the first call takes over
    ('regclass', '0'), ('regclass', '4294967295'), ('regclass', $$'pg_catalog.pg_class'$$),
    ('regclass', $$'pg_catalog.pg_stat_activity'$$), ('regclass', $$'pg_temp.hostile_keys'$$),
    ('regclass', $$'pg_temp.hostile_keys_id_seq'$$), ('regclass', 'NULL'),
    ('name', $$''$$), ('name', $$'ctid'$$), ('name', $$'id'$$), ('name', $$'label'$$), ('name', $$repeat('x', 100)$$),
    ('name', $$'日本語😀'$$), ('name', 'NULL')
),
-- A valid value for an argument without a default, by name where the name says what it needs, else by type.
valid(name, type, value) AS (VALUES
    ('objectid', 'text'::regtype, $$'4e7020cb7cac81af7136236b'$$), ('hex', 'text', $$'507f1f77bcf86cd799439011'$$),
    ('alphabet', 'text', $$'abcdefghijklmnopqrstuvwxyz0123456789'$$), ('window_size', 'integer', '4'),
    ('k', 'integer', '3'), ('w', 'integer', '4'), ('length', 'integer', '8'),
    ('key', 'bytea', $$'\x2b7e151628aed2a6abf7158809cf4f3c'$$), ('plaintext', 'text', $$'helloworld'$$),
    ('ciphertext', 'text', $$'helloworld'$$), ('key_name', 'text', $$'customers'$$), ('column_name', 'name', $$'id'$$)
),
by_type(type, value) AS (VALUES
    ('text'::regtype, $$'hello world'$$), ('integer', '1'), ('bigint', '42'), ('boolean', 'false'),
    ('bytea', $$'\x68656c6c6f20776f726c64'$$), ('uuid', $$'6ba7b810-9dad-11d1-80b4-00c04fd430c8'$$),
    ('bigint[]', $$'{1,2,3}'$$), ('text[]', $$'{lo,wor}'$$), ('cstring', $$'x'$$),
    ('ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FAV'$$), ('typeid', $$'user_01h455vb4pex5vsknk084sn02q'$$),
    ('timestamp with time zone', $$'2026-01-01 00:00:00+00'$$), ('interval', $$'1 day'$$),
    ('regclass', $$'pg_temp.hostile_keys'$$), ('name', $$'id'$$)
),
fn AS (
    SELECT p.oid, p.oid::regprocedure::text AS signature, p.proretset, p.pronargs, p.pronargdefaults
    FROM pg_proc p
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids')
    -- functions of internal values (binary input, sort support) cannot be called from SQL; binary input is tried
    -- below through binary COPY
    WHERE NOT 'internal'::regtype = ANY (p.proargtypes::regtype[])
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
    UNION ALL
    -- a function without arguments: called once
    SELECT fn.signature, '', '', format('%s()', fn.oid::regproc), fn.proretset FROM fn WHERE fn.pronargs = 0
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
CREATE TEMP TABLE hostile_keys (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, label text);
INSERT INTO hostile_keys (label) VALUES ('a'), ('b');
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

tap_diag "hostile calls: $total generated from the catalog, $answered answered"
tap_diag "$(cut -d'|' -f2 "$work/outcomes" | sort | uniq -c | awk '{printf "  %s x%s\n", $2, $1}')"
if [ "$answered" -eq "$total" ]; then
    tap_ok "the session answered all $total calls (none ended it)"
else
    tap_not_ok "the session answered all $total calls (none ended it)" \
        "$(echo "the session ended early, after call $answered:"; sed -n "$((answered + 1))p" "$work/calls.sql"
           head -n 5 "$work/errors")"
fi
# One test for the whole battery: each call that raised an undocumented SQLSTATE is a line of its diagnostics.
undocumented=$(while IFS='|' read -r id state description message; do
    case " $documented " in *" $state "*) ;; *) echo "call $id: $state from $description: $message" ;; esac
done < "$work/outcomes")
if [ -z "$undocumented" ]; then
    tap_ok "every call answered or raised a documented SQLSTATE (no internal error, no timeout)"
else
    tap_not_ok "every call answered or raised a documented SQLSTATE (no internal error, no timeout)" \
        "$(echo "$(wc -l <<<"$undocumented") calls raised an undocumented SQLSTATE:"; head -n 40 <<<"$undocumented")"
fi

# Binary input of the types, from binary COPY: values too short, too long and of garbage bytes, one COPY each.
psql_q -c "CREATE TABLE hostile_ulid (v ulid)" -c "CREATE TABLE hostile_typeid (v typeid)"
python3 - "$work" <<'PY'
import os, random, struct, sys
random.seed(30)
def copy_file(value):
    body = struct.pack(">h", 1) + (struct.pack(">i", -1) if value is None else struct.pack(">i", len(value)) + value)
    return b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0) + body + struct.pack(">h", -1)
uuid = bytes(range(16))
cases = {
    "ulid": [b"", b"\x01", bytes(15), uuid, bytes(17), bytes(64), bytes(random.getrandbits(8) for _ in range(100000)), None],
    "typeid": [b"", bytes(15), uuid, b"a" + uuid, b"a" * 63 + uuid, b"a" * 64 + uuid, b"A" + uuid, b"_a" + uuid,
               b"a_" + uuid, b"a\x00b" + uuid, "é".encode() + uuid, bytes(random.getrandbits(8) for _ in range(1000)),
               b"\xff" * 100000, None],
}
for table, values in cases.items():
    for k, value in enumerate(values):
        with open(os.path.join(sys.argv[1], f"binary-{table}-{k}.copy"), "wb") as f:
            f.write(copy_file(value))
PY
# 22P03: a value the type refuses, or bytes left over; 08P01: fewer bytes than a ulid's 16
binary_documented="00000 22P03 08P01"
binary_calls=0
# One test per binary COPY.
for file in "$work"/binary-*.copy; do
    table=$(basename "$file" | cut -d- -f2)
    binary_calls=$((binary_calls + 1))
    state=$(psql -X -q -At -c "\set VERBOSITY sqlstate" -c "\copy hostile_$table FROM '$file' WITH (FORMAT binary)" 2>&1 |
            sed -nE 's/^(psql:.*)?ERROR: +([0-9A-Z]{5}).*/\2/p' | head -n 1 || true)
    state=${state:-00000}
    case " $binary_documented " in
        *" $state "*) tap_ok "binary COPY into $table of $(basename "$file"): stored, or refused with 22P03 or 08P01" ;;
        *) tap_not_ok "binary COPY into $table of $(basename "$file"): stored, or refused with 22P03 or 08P01" "got $state" ;;
    esac
done
stored=$(psql_q -c "SELECT (SELECT count(*) FROM hostile_ulid WHERE v IS NOT NULL) || ' ' || (SELECT count(*) FROM hostile_typeid WHERE v IS NOT NULL)")
tap_diag "binary input: $binary_calls binary COPYs of short, long and garbage values"
# the valid values: a ulid of 16 bytes; typeids of no prefix, 'a' and 63 letters
check "binary input stored exactly the valid values (ulids, typeids)" "$stored" "1 3"
psql_q -c "DROP TABLE hostile_ulid, hostile_typeid"
check "the server did not restart during the battery (no backend crashed)" \
    "$(psql_q -c "SELECT pg_postmaster_start_time()")" "$started"
psql_q -c "DROP EXTENSION idcodec_pg_hashids"
tap_done
