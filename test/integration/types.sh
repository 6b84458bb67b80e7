#!/usr/bin/env bash
# The ulid and typeid types in real use, beyond the regress suite:
#   - libpq in binary mode (test/drivers/binary_types.cpp): binary parameters and results, malformed binary values;
#   - no "operator is not unique": idcodec in a schema of its own beside eight other extensions, every comparison
#     and join of ulid with uuid, text and literals, each statement alone, with its exact result or SQLSTATE; and
#     with idcodec's schema off the search path, ulid columns still compare (as uuids);
#   - COPY ... (FORMAT binary) out and back in, and pg_dump/pg_restore, give the same rows and working indexes;
#   - ORDER BY a ulid key is the order rows were made in; parallel plans give what serial ones give;
#   - generated values are never repeated across 8 concurrent backends and parallel workers (each process draws
#     randomness of its own).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
db=idcodec_types
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" \
     -c "DROP DATABASE IF EXISTS ${db}_restored" -c "CREATE DATABASE $db"
work=$(mktemp -d)
trap 'rm -rf "$work"; psql -X -q -c "DROP DATABASE IF EXISTS $db" -c "DROP DATABASE IF EXISTS ${db}_restored" >/dev/null 2>&1 || true
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT

# ---- libpq in binary mode: the program's own checks ("ok: ..." / "FAILED: ..." lines) are one test here
make -s build/binary_types PG_CONFIG="$PG_BIN/pg_config" >&2
q -c "CREATE EXTENSION idcodec"
if out=$(build/binary_types "dbname=$db" 2>&1); then
    tap_ok "libpq binary mode: binary parameters, results and malformed binary values"
    tap_diag "libpq binary mode: $(grep -c '^ok' <<<"$out") checks passed"
else
    tap_not_ok "libpq binary mode: binary parameters, results and malformed binary values" "$(grep -v '^ok' <<<"$out")"
fi

# ---- no ambiguity: idcodec in its own schema beside other extensions, each in a schema of its own
q -c "DROP EXTENSION idcodec" -c "CREATE SCHEMA idc" -c "CREATE EXTENSION idcodec SCHEMA idc"
path=idc
for extension in citext hstore ltree isn pg_trgm btree_gin btree_gist uuid-ossp; do
    schema=x_${extension//-/_}
    q -c "CREATE SCHEMA $schema" -c "CREATE EXTENSION \"$extension\" SCHEMA $schema"
    path+=", $schema"
done
q <<SQL
SET search_path = public, $path;
CREATE TABLE keys (id idc.ulid PRIMARY KEY, u uuid NOT NULL, t text NOT NULL, c x_citext.citext NOT NULL,
                   tid idc.typeid NOT NULL);
INSERT INTO keys VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01563e3a-b5d3-d676-4c61-efb99302bd5b', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
                         '01arz3ndektsv4rrffq69g5fav', 'user_01h455vb4pex5vsknk084sn02q'),
                        ('01H455VB4PEX5VSKNK084SN02Q', '01890a5d-ac96-774b-bcce-b302099a8057', 'not a ulid', 'x',
                         'post_01h455vb4pex5vsknk084sn02q');
SQL
# statement|expected output (a SQLSTATE for an error): each runs alone
while IFS='|' read -r statement expected; do
    [ -n "$statement" ] || continue
    got=$(q -v VERBOSITY=sqlstate -c "SET search_path = public, $path" -c "$statement" 2>&1 | tr '\n' ' ' | sed 's/ $//' || true)
    got=${got#ERROR:  }
    check "beside 8 extensions: $statement" "$got" "$expected"
done <<'CASES'
SELECT count(*) FROM keys WHERE id = u|2
SELECT count(*) FROM keys WHERE u = id|2
SELECT count(*) FROM keys a JOIN keys b ON a.id = b.u|2
SELECT count(*) FROM keys a JOIN keys b ON b.u = a.id AND a.u = b.id|2
SELECT count(*) FROM keys WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'|1
SELECT count(*) FROM keys WHERE '01arz3ndektsv4rrffq69g5fav' = id|1
SELECT count(*) FROM keys WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'|1
SELECT count(*) FROM keys WHERE id IN ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01H455VB4PEX5VSKNK084SN02Q')|2
SELECT count(*) FROM keys WHERE id = ANY (ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAV'::idc.ulid])|1
SELECT count(*) FROM keys WHERE id = ANY (ARRAY[u])|2
SELECT count(*) FROM keys WHERE id < u OR id > u|0
SELECT count(*) FROM keys WHERE id <> '01ARZ3NDEKTSV4RRFFQ69G5FAV'|1
SELECT count(*) FROM keys WHERE id BETWEEN '00000000000000000000000000' AND '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'|2
SELECT count(*) FROM keys WHERE id = t|42883
SELECT count(*) FROM keys WHERE t = id|42883
SELECT count(*) FROM keys WHERE id = c|42883
SELECT count(*) FROM keys WHERE id::text = t|1
SELECT count(*) FROM keys WHERE id = t::idc.ulid AND t <> 'not a ulid'|1
SELECT count(*) FROM keys WHERE id::text::x_citext.citext = c|1
SELECT pg_typeof(coalesce(id, u)) FROM keys LIMIT 1|uuid
SELECT pg_typeof(CASE WHEN true THEN id ELSE u END) FROM keys LIMIT 1|uuid
SELECT count(*) FROM (SELECT id FROM keys UNION SELECT u FROM keys) s|2
SELECT count(*) FROM keys WHERE tid = 'user_01h455vb4pex5vsknk084sn02q'|1
SELECT count(*) FROM keys WHERE tid = t|42883
SELECT count(*) FROM keys WHERE tid::uuid = u OR tid::uuid = id|1
SELECT count(*) FROM keys WHERE id = uuid_generate_v4()|0
SELECT count(*) FROM keys WHERE u = x_uuid_ossp.uuid_generate_v1()|0
SELECT max(id)::text FROM keys|01H455VB4PEX5VSKNK084SN02Q
SELECT min(tid)::text FROM keys|post_01h455vb4pex5vsknk084sn02q
CASES
# idcodec's schema off the search path: ulid columns still compare (ulid becomes uuid implicitly)
check "off the search path, ulid = ulid and ulid = uuid compare as uuids" \
    "$(q -c "SET search_path = public" -c "SELECT count(*) FROM keys a JOIN keys b ON a.id = b.id AND a.id = b.u")" "2"
q -c "DROP TABLE keys"
for extension in citext hstore ltree isn pg_trgm btree_gin btree_gist uuid-ossp; do
    q -c "DROP EXTENSION \"$extension\"" -c "DROP SCHEMA x_${extension//-/_}"
done
q -c "DROP EXTENSION idcodec" -c "DROP SCHEMA idc" -c "CREATE EXTENSION idcodec"

# ---- tables keyed by the types: creation order, binary COPY, parallel plans, pg_dump/pg_restore
q <<'SQL'
CREATE DOMAIN user_id AS typeid CHECK (typeid_prefix(VALUE) = 'user');
CREATE TABLE app_user (id user_id PRIMARY KEY DEFAULT gen_typeid('user'), made serial, name text);
CREATE TABLE event (id ulid PRIMARY KEY DEFAULT gen_ulid(), made serial, actor user_id REFERENCES app_user,
                    legacy uuid, payload int);
CREATE INDEX event_brin ON event USING brin (id);
CREATE INDEX event_actor ON event USING hash (actor);
INSERT INTO app_user (name) SELECT 'user ' || i FROM generate_series(1, 2000) i;
INSERT INTO event (actor, legacy, payload)
SELECT u.id, uuid_generate_v7(), i FROM generate_series(1, 100000) i JOIN app_user u ON u.made = 1 + i % 2000;
ANALYZE app_user, event;
SQL
# one row per statement too, so that creation order is not only one statement's
for i in $(seq 1 50); do echo "INSERT INTO event (actor, payload) SELECT id, -$i FROM app_user WHERE made = 1;"; done | q
check "ORDER BY the ulid key and the typeid key is the order rows were made in" \
    "$(q -c "SELECT (SELECT bool_and(made > prev) FROM (SELECT made, lag(made) OVER (ORDER BY id) AS prev FROM event) s)
                AND (SELECT bool_and(made > prev) FROM (SELECT made, lag(made) OVER (ORDER BY id) AS prev FROM app_user) s)")" "t"
q -c "SELECT id, made, actor, legacy, payload FROM event ORDER BY id" >"$work/event.before"
q -c "SELECT id, made, name FROM app_user ORDER BY id" >"$work/user.before"
q -c "\\copy event TO '$work/event.copy' WITH (FORMAT binary)" -c "\\copy app_user TO '$work/user.copy' WITH (FORMAT binary)"
q -c "TRUNCATE event, app_user" -c "\\copy app_user FROM '$work/user.copy' WITH (FORMAT binary)" \
  -c "\\copy event FROM '$work/event.copy' WITH (FORMAT binary)"
# Statistics of the rows now there: an autovacuum ANALYZE that ran during the COPY may have recorded the table as
# empty, and plans below would be chosen for one row.
q -c "ANALYZE app_user, event"
check "binary COPY out and back in: the same 2,000 typeid and 100,050 ulid rows" \
    "$(q -c "SELECT id, made, actor, legacy, payload FROM event ORDER BY id" | cmp -s - "$work/event.before" && echo same;
       q -c "SELECT id, made, name FROM app_user ORDER BY id" | cmp -s - "$work/user.before" && echo same)" "same
same"
# the file holds each ulid as uuid's 16 bytes (three rows' bytes looked for)
check "binary COPY of a ulid is uuid's 16 bytes" \
    "$(q -c "SELECT encode(ulid_send(id), 'hex') FROM event WHERE payload IN (1, 2, 3)" |
       python3 -c "import sys; data = open(sys.argv[1], 'rb').read(); print(sum(bytes.fromhex(l.strip()) in data for l in sys.stdin))" "$work/event.copy")" "3"

parallel_setting=$(q -c "SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END")
queries=("SELECT count(*), count(DISTINCT id), min(id), max(id), count(DISTINCT actor) FROM event"
         "SELECT typeid_prefix(actor), count(*), min(ulid_timestamp(id)) <= max(ulid_timestamp(id)) FROM event GROUP BY 1"
         "SELECT count(*) FROM event e JOIN app_user u ON u.id = e.actor WHERE e.id > (SELECT id FROM event ORDER BY id OFFSET 50000 LIMIT 1)"
         "SELECT count(*), count(b.u) FROM event a LEFT JOIN (SELECT id::uuid AS u FROM event WHERE payload % 3 = 0) b ON a.id = b.u"
         "SELECT md5(string_agg(id::text || actor::text, ',' ORDER BY id)) FROM event")
for query in "${queries[@]}"; do
    serial=$(q -c "SET max_parallel_workers_per_gather = 0" -c "$query")
    parallel=$(q -c "SET $parallel_setting = on" -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" \
                 -c "SET min_parallel_table_scan_size = 0" -c "SET max_parallel_workers_per_gather = 4" -c "$query")
    check "parallel = serial: ${query:0:70}" "$parallel" "$serial"
done
# The planner's choice is forced ($parallel_setting): whatever the costs, the ulid comparison must run in a worker.
plan=$(q -c "SET $parallel_setting = on" -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" \
         -c "SET min_parallel_table_scan_size = 0" \
         -c "EXPLAIN (COSTS OFF) SELECT count(DISTINCT actor) FROM event WHERE id > '2020-01-01'::timestamptz::ulid")
below=$(awk '/Gather/ { gather = 1 } gather && /(Filter|Cond): \(id > / { print "below"; exit }' <<<"$plan")
check "a parallel plan is used: the ulid comparison runs below a Gather" "${below:-$(tr -s '\n ' ' ' <<<"$plan")}" "below"

"$PG_BIN/pg_dump" -Fc -f "$work/dump" "$db"
psql -X -q -c "CREATE DATABASE ${db}_restored"
"$PG_BIN/pg_restore" -d "${db}_restored" "$work/dump"
check "pg_dump/pg_restore: the same rows, ordered the same" \
    "$(psql -X -q -At -d "${db}_restored" -c "SELECT id, made, actor, legacy, payload FROM event ORDER BY id" | cmp -s - "$work/event.before" && echo same;
       psql -X -q -At -d "${db}_restored" -c "SELECT id, made, name FROM app_user ORDER BY id" | cmp -s - "$work/user.before" && echo same)" "same
same"
check "pg_dump/pg_restore: the indexes answer (B-tree, BRIN, hash, the domain's check)" \
    "$(psql -X -q -At -d "${db}_restored" -c "SET enable_seqscan = off" \
         -c "SELECT count(*) FROM event WHERE id >= (SELECT id FROM event ORDER BY id OFFSET 99999 LIMIT 1)" \
         -c "SELECT count(*) FROM event WHERE actor = (SELECT id FROM app_user WHERE made = 7)" \
         -c "INSERT INTO app_user (id) VALUES ('post_01h455vb4pex5vsknk084sn02q')" 2>&1 | sed 's/ERROR: *//')" "51
50
value for domain user_id violates check constraint \"user_id_check\""

# ---- randomness never shared: 8 backends at once and parallel workers; the 62 random bits of each value differ
q -c "CREATE TABLE drawn (v ulid)" -c "CREATE TABLE source AS SELECT generate_series(1, 200000) AS i" -c "ANALYZE source"
# (waited for by their pids: a bare wait would wait for the throwaway cluster's watchdog too, which runs to the end)
inserts=()
for k in $(seq 1 8); do q -c "INSERT INTO drawn SELECT gen_ulid() FROM generate_series(1, 25000)" & inserts+=($!); done
for pid in "${inserts[@]}"; do wait "$pid" || true; done
q -c "SET $parallel_setting = on" -c "SET parallel_setup_cost = 0" -c "SET parallel_tuple_cost = 0" \
  -c "SET max_parallel_workers_per_gather = 4" -c "CREATE TEMP TABLE w AS SELECT gen_ulid() AS v FROM source WHERE i % 2 = 0" \
  -c "INSERT INTO drawn SELECT v FROM w"
check "300,000 values from 8 concurrent backends and parallel workers: no random part repeated" \
    "$(q -c "SELECT count(*) || ' ' || count(DISTINCT substring(ulid_send(v) FROM 9 FOR 8)) FROM drawn")" "300000 300000"

tap_done
