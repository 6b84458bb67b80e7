#!/usr/bin/env bash
# A major upgrade by logical replication, from Debian's PostgreSQL 15 to the newest stock major (18), of tables keyed
# by snowflake_generate(), gen_typeid() and gen_ulid() with columns of all three kinds: the source (node 5) writes on
# while the target copies the tables and then streams the changes (binary = true: the
# ulid and typeid values travel in their binary form; the initial copy from a 15 is in text, as PostgreSQL
# documents for publishers before 16), with inserts, updates (keyed by a snowflake bigint and by a typeid) and
# deletes (keyed by a typeid). Then the cut-over: the source's writes stop, the target catches up (its slot on the
# source has confirmed the source's last WAL position), both have the same rows (digests of every column), the
# subscription goes, and the target takes over node number 5 and writes: no key repeats, every key made on 18 is
# above every key made on 15, and every key has node 5.
#
# Why the same node number cannot repeat a key: the source no longer writes; its IDs were never ahead of its clock
# (an ID's millisecond is never after the clock reading of the process that made it), so every ID it made has a
# millisecond at or before the moment its writes stopped; the target's server makes no ID below its clock + 100 ms
# at its first snowflake_generate() (the start of a server's life: here the first call after the cut-over), which
# comes after that moment. So with the two clocks within 100 ms of each other (here one clock), the target's first
# ID is above the source's last. Both halves are checked: the source's greatest ID against its clock at the stop,
# the target's first ID against its clock before the call.
#
# Runs once per test command (it builds idcodec for both majors, as the upgrade suites do). Prints "ok: ..." or
# "FAILED: ..." per check; without the newest major's release tarball it prints "SKIPPED: ..." and exits 77.
source "$(dirname "$0")/../../scripts/setup.sh"
source test/lib/postgres_build.sh
target=${POSTGRES_RELEASES[-1]}
set +e
postgres_require "$target"
set -e
old_bin=$PG_BIN
new_bin=$(postgres_prefix "$target")/bin
build_and_install
idcodec_build_for "$new_bin/pg_config" "$IDCODEC_ROOT/build/pg-$target" ||
    { echo "FAILED: idcodec builds for PostgreSQL $target"; tail -n 30 "$IDCODEC_ROOT/build/pg-$target/build.log"; exit 1; }

source test/lib/check.sh
source test/lib/cluster.sh
source test/lib/psql_fifo.sh
source test/replication/writer.sh
# the newest psql, for both servers (a psql is made for its own and older servers)
export PATH=$new_bin:$PATH
started=$SECONDS

node=5
initial=50000           # rows on the source before the subscription (the initial copy)
streamed=5000           # rows the source writes at least after the copy (the streaming), before the cut-over
rows_18=10000           # rows the target writes after the cut-over
batch=50

work=$CLUSTERS/upgrade
mkdir -p "$work/w15" "$work/w18"
src_port=$(free_port)
dst_port=$(free_port)
PG_BIN=$old_bin cluster_start src "$src_port" wal_level=logical
PG_BIN=$new_bin cluster_start dst "$dst_port"
src() { cluster_psql "$src_port" -d postgres "$@"; }
dst() { cluster_psql "$dst_port" -d postgres "$@"; }
src -c "CREATE EXTENSION idcodec" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.node_id = $node" \
    -c "SELECT pg_reload_conf()" >/dev/null
# The tables, made alike on both (the target's schema is not pg_dump's: Debian's 15.20 records a pg_attver option on
# every column, which the stock 18.6 rejects, see docs/upgrading.md; logical replication does not mind it)
schema="
CREATE TABLE item (
    id bigint DEFAULT snowflake_generate() PRIMARY KEY,
    u ulid NOT NULL DEFAULT gen_ulid() UNIQUE,
    t typeid NOT NULL DEFAULT gen_typeid('item') UNIQUE,
    phase text NOT NULL,
    n int NOT NULL
);
CREATE TABLE event (
    id typeid DEFAULT gen_typeid('event') PRIMARY KEY,
    item bigint NOT NULL,
    at ulid NOT NULL DEFAULT gen_ulid()
);
CREATE INDEX ON item (phase, n);
CREATE INDEX ON event (item);"
dst -c "CREATE EXTENSION idcodec" -c "$schema"
src -c "$schema" -c "CREATE PUBLICATION upgrade FOR TABLE item, event" -c "
    WITH i AS (INSERT INTO item (phase, n) SELECT 'initial', g FROM generate_series(1, $initial) g RETURNING id)
    INSERT INTO event (item) SELECT id FROM i"

# ---- the source writes: each batch (one statement) inserts items and their events, and on the batch before it
# updates items (keyed by bigint), updates events (keyed by typeid: a new ulid) and deletes events (keyed by typeid)
batch_sql() {
    local prev="phase = '$phase' AND n BETWEEN $(($1 - batch)) AND $(($1 - 1))"
    sql="WITH i AS (INSERT INTO item (phase, n) SELECT '$phase', g FROM generate_series($1, $2) g RETURNING id),
              e AS (INSERT INTO event (item) SELECT id FROM i),
              u AS (UPDATE item SET n = -n WHERE $prev AND n % 10 = 0),
              v AS (UPDATE event SET at = gen_ulid() WHERE item IN (SELECT id FROM item WHERE $prev AND n % 10 = 3)),
              d AS (DELETE FROM event WHERE item IN (SELECT id FROM item WHERE $prev AND n % 10 = 7))
         SELECT id FROM i"
}
acked_rows() { [ -s "$1" ] && echo $(($(wc -l <"$1") * batch)) || echo 0; }
phase=15 writer w15 "$src_port" 1000000000 "$batch" "$work/w15" &
writer_pid=$!
trap 'kill "$writer_pid" 2>/dev/null || true; cluster_stop_all' EXIT
# wait_for CONDITION SECONDS WHAT: until the command CONDITION succeeds; exits failing when the time is up or the
# writer (w15 or w18: $current) failed
current=w15
wait_for() {
    local until=$((SECONDS + $2))
    until eval "$1"; do
        if ! kill -0 "$writer_pid" 2>/dev/null && [ ! -e "$work/$current/$current.rows" ]; then
            echo "FAILED: the writer $current failed:"; tail -n 20 "$work/$current/$current.err" | sed 's/^/    /'; exit 1
        fi
        [ $SECONDS -lt "$until" ] || { echo "FAILED: waited ${2}s for $3"; exit 1; }
        sleep 0.05
    done
}
wait_for '[ "$(acked_rows "$work/w15/w15.acked")" -gt 0 ]' 60 "the first batch on 15"

# ---- the subscription: the initial copy while the source writes, then the streaming
dst -c "SET client_min_messages = warning" -c "CREATE SUBSCRIPTION upgrade
        CONNECTION 'host=localhost port=$src_port user=postgres dbname=postgres' PUBLICATION upgrade
        WITH (binary = true)"
subscribed_at=$EPOCHREALTIME
written_at_subscription=$(acked_rows "$work/w15/w15.acked")
wait_for '[ "$(dst -c "SELECT count(*) FILTER (WHERE srsubstate = '"'r'"') FROM pg_subscription_rel")" = 2 ]' 300 \
    "the initial copy of both tables"
copied_at=$EPOCHREALTIME
written_at_copy=$(acked_rows "$work/w15/w15.acked")
wait_for '[ "$(acked_rows "$work/w15/w15.acked")" -ge $((written_at_copy + streamed)) ]' 300 \
    "$streamed more rows on 15 after the copy"

# ---- the cut-over: the writes on 15 stop; the target has caught up when its slot on the source has confirmed the
# source's WAL position after the last write
touch "$work/w15/stop"
wait_for '[ -e "$work/w15/w15.rows" ]' 120 "the writer on 15 to stop"
wait "$writer_pid"
IFS='|' read -r stop_lsn stop_ms <<<"$(src -c "SELECT pg_current_wal_lsn(), floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint")"
stopped_at=$EPOCHREALTIME
wait_for '[ "$(src -c "SELECT confirmed_flush_lsn >= '"'$stop_lsn'"' FROM pg_replication_slots WHERE slot_name = '"'upgrade'"'")" = t ]' \
    120 "the target to confirm $stop_lsn"
caught_up_at=$EPOCHREALTIME
digests="SELECT (SELECT count(*) || ' ' || md5(string_agg(concat_ws(' ', id, u, t, phase, n), E'\n' ORDER BY id)) FROM item
                 WHERE phase <> '18'),
                (SELECT count(*) || ' ' || md5(string_agg(concat_ws(' ', id, item, at), E'\n' ORDER BY id)) FROM event
                 WHERE item NOT IN (SELECT id FROM item WHERE phase = '18'))"
source_digests=$(src -c "$digests")
IFS='|' read -r source_max source_max_ms written_15 <<<"$(src -c "
    SELECT max(id), (extract(epoch FROM snowflake_timestamp(max(id))) * 1000)::bigint, count(*) FILTER (WHERE phase = '15')
    FROM item")"
expect "at the cut-over the target ($(dst -c "SHOW server_version")) has the source's ($(src -c "SHOW server_version"))" \
       "rows, items and events, every column (count and md5: ${source_digests/|/, })" \
    "$(dst -c "$digests")" "$source_digests"
expect "the source's IDs were never ahead of its clock: its greatest ID's millisecond is not after its clock when its" \
       "writes stopped ($((stop_ms - source_max_ms)) ms before)" \
    "$([ "$source_max_ms" -le "$stop_ms" ] && echo not after || echo "$((source_max_ms - stop_ms)) ms after")" "not after"

# ---- the target takes over: the subscription goes (and its slot on the source), node 5 is the target's now
dst -c "SET client_min_messages = warning" -c "DROP SUBSCRIPTION upgrade" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.node_id = $node" \
    -c "SELECT pg_reload_conf()" >/dev/null
# the target's first ID, with its clock read just before (a select list is evaluated in order; the subquery, volatile,
# is not flattened)
IFS='|' read -r before_ms first_id first_ms <<<"$(dst -c "
    SELECT floor(extract(epoch FROM c) * 1000)::bigint, id, (extract(epoch FROM snowflake_timestamp(id)) * 1000)::bigint
    FROM (SELECT clock_timestamp() AS c, snowflake_generate() AS id) s")"
expect "the target's first ID is at least 100 ms after its clock before the call ($((first_ms - before_ms)) ms after)," \
       "so above the source's IDs" \
    "$([ "$first_ms" -ge $((before_ms + 100)) ] && echo yes || echo "only $((first_ms - before_ms)) ms")" yes

# ---- the target writes, with node 5
phase=18 writer w18 "$dst_port" "$rows_18" "$batch" "$work/w18" &
writer_pid=$!
current=w18
wait_for '[ -e "$work/w18/w18.rows" ]' 300 "the writer on 18"
wait "$writer_pid" || { echo "FAILED: the writer on 18 failed:"; tail -n 20 "$work/w18/w18.err" | sed 's/^/    /'; exit 1; }
acked_keys "$work/w18" w18 >"$work/keys18"
src -c "SELECT id FROM item" >"$work/keys15"
expect "the target wrote $rows_18 rows, their keys none of the source's $(wc -l <"$work/keys15") and none twice" \
    "$(wc -l <"$work/keys18") $(sort "$work/keys15" "$work/keys18" | uniq -d | wc -l)" "$rows_18 0"
IFS='|' read -r min_18 max_not_18 all distinct wrong_node <<<"$(dst -c "
    SELECT min(id) FILTER (WHERE phase = '18'), max(id) FILTER (WHERE phase <> '18'), count(*), count(DISTINCT id),
           count(*) FILTER (WHERE snowflake_node(id) <> $node)
    FROM item")"
expect "every key made on 18 is above every key made on 15 (the least $min_18, the greatest before $max_not_18), the" \
       "first ID too; all $all keys distinct and of node $node" \
    "$([ "$min_18" -gt "$max_not_18" ] && [ "$first_id" -gt "$source_max" ] && echo above || echo "not above") $distinct $wrong_node" \
    "above $all 0"
expect "the source's rows are on the target as at the cut-over, besides the target's $rows_18" \
    "$(dst -c "$digests") $(dst -c "SELECT count(*) FROM item WHERE phase = '18'")" "$source_digests $rows_18"

# no error in either server's log
errors=$(grep -h -E '(ERROR|PANIC):' "$(cluster_log src)" "$(cluster_log dst)" || true)
check "no error in the servers' logs" "$errors" ""

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%d", n / s }'; }
w15_time=$(seconds "$(cat "$work/w15/w15.started")" "$(cat "$work/w15/w15.finished")")
w18_time=$(seconds "$(cat "$work/w18/w18.started")" "$(cat "$work/w18/w18.finished")")
echo "PostgreSQL $(src -c "SHOW server_version") -> $(dst -c "SHOW server_version") by logical replication: $initial" \
     "rows before the subscription; on 15 $written_15 rows written in $w15_time s ($(rate "$written_15" "$w15_time") rows/s)," \
     "$written_at_subscription before the subscription, $((written_at_copy - written_at_subscription)) during the" \
     "initial copy ($(seconds "$subscribed_at" "$copied_at") s), $((written_15 - written_at_copy)) streamed after it;" \
     "caught up $(seconds "$stopped_at" "$caught_up_at") s after the writes stopped; on 18 $rows_18 rows in $w18_time s" \
     "($(rate "$rows_18" "$w18_time") rows/s); $((SECONDS - started)) s in all; $passes passed, $failures failed"
[ "$failures" -eq 0 ]
