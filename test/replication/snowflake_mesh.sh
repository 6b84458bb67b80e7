#!/usr/bin/env bash
# Many writers: three servers, each with its own idcodec.node_id (1, 2, 3), each publishing one table keyed by
# snowflake_generate() (with ulid and typeid columns from gen_ulid() and gen_typeid()) and subscribing to the two
# others with PostgreSQL's own logical replication (origin = none, so a row goes only from the server where it was
# written; binary = true, so the types travel in their binary form; copy_data = false, the tables start empty).
# A client on every server writes a fixed number of rows in small batches, all at once, recording the keys of each
# batch the server acknowledged; half-way through its rows, server 2's postmaster gets SIGKILL and is started
# again (crash recovery) while the others write on, and its client connects again and goes on. Then every server
# must get every row: every acknowledged key on every server, the three tables identical (a digest of all columns
# ordered by key), no error in any server's log but those of the lost connections (a duplicate key would stop the
# apply with "duplicate key value violates unique constraint"), and every key's snowflake_node() the number of the
# server whose client got it. Prints the rows per second written and the replication lag (from the end of the
# writing until the three tables were equal).
#
# Needs PostgreSQL 16 or later (origin = none); runs on the PostgreSQL of $PG_BIN, into which idcodec is installed
# (test/major.sh runs it on 16, 17 and 18). Prints "ok: ..." or "FAILED: ..." per check.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/check.sh
source test/lib/cluster.sh
source test/lib/psql_fifo.sh
source test/replication/writer.sh
export PATH=$PG_BIN:$PATH
started=$SECONDS

rows=${MESH_ROWS:-50000}    # rows each server's client writes (acknowledged), in batches of
batch=50
victim=2                    # the server whose postmaster is killed, when its client has written half its rows
nodes=(1 2 3)
# wal_retrieve_retry_interval: a subscription whose connection was lost is tried again after 0.2 s, not 5 s.
# The log lines name the process (%b), so each error can be told from where it came.
settings=(wal_level=logical max_wal_senders=10 max_replication_slots=10 wal_retrieve_retry_interval=200ms
          "log_line_prefix='%m [%p] %b: '")

work=$CLUSTERS/mesh
mkdir -p "$work"
major=$("$PG_BIN/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
if [ "$major" -lt 16 ]; then
    echo "FAILED: PostgreSQL $major has no subscriptions with origin = none: run this suite on 16 or later"
    exit 1
fi

declare -A port
for n in "${nodes[@]}"; do port[$n]=$(free_port); done
q() { local n=$1; shift; cluster_psql "${port[$n]}" -d postgres "$@"; }
for n in "${nodes[@]}"; do
    cluster_start "n$n" "${port[$n]}" "${settings[@]}"
    # LOAD first, so that ALTER SYSTEM knows the setting and checks the value
    q "$n" -c "CREATE EXTENSION idcodec" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.node_id = $n" \
        -c "SELECT pg_reload_conf()" >/dev/null
    q "$n" <<'SQL'
CREATE TABLE item (
    id bigint DEFAULT snowflake_generate() PRIMARY KEY,
    u ulid NOT NULL DEFAULT gen_ulid(),
    t typeid NOT NULL DEFAULT gen_typeid('item'),
    writer int NOT NULL,
    n int NOT NULL
);
CREATE PUBLICATION mesh FOR TABLE item;
SQL
done
# Each server subscribes to the two others; the subscriptions' names (and so their slots on the publishers) name
# both ends, since each publisher has a slot for each of the two others.
for n in "${nodes[@]}"; do
    for from in "${nodes[@]}"; do
        [ "$from" != "$n" ] || continue
        q "$n" -c "SET client_min_messages = warning" -c "CREATE SUBSCRIPTION s${n}_from_$from
                   CONNECTION 'host=localhost port=${port[$from]} user=postgres dbname=postgres'
                   PUBLICATION mesh WITH (origin = none, binary = true, copy_data = false)"
    done
done

# wait_for CONDITION SECONDS [WHAT]: until the command CONDITION succeeds; exits failing when the time is up or a
# writer failed
writers=()
trap 'for pid in "${writers[@]}"; do kill "$pid" 2>/dev/null || true; done; cluster_stop_all' EXIT
wait_for() {
    local until=$((SECONDS + $2)) n
    until eval "$1"; do
        for n in "${!writers[@]}"; do
            kill -0 "${writers[$n]}" 2>/dev/null || [ -e "$work/n$n.rows" ] && continue
            echo "FAILED: the writer on server $n failed:"; tail -n 20 "$work/n$n.err" | sed 's/^/    /'; exit 1
        done
        [ $SECONDS -lt "$until" ] || { echo "FAILED: waited ${2}s for ${3:-$1}"; exit 1; }
        sleep 0.05
    done
}
# every server's two apply workers running, before any row is written
streaming() {
    local n
    for n in "${nodes[@]}"; do
        [ "$(q "$n" -c "SELECT count(DISTINCT subid) FROM pg_stat_subscription WHERE pid IS NOT NULL AND relid IS NULL")" = 2 ] ||
            return 1
    done
}
wait_for streaming 60 "every subscription's apply worker"
check "three servers of PostgreSQL $(q 1 -c "SHOW server_version"), node numbers $(for n in "${nodes[@]}"; do
    q "$n" -c "SHOW idcodec.node_id"; done | paste -sd ,), each subscribed to the two others" \
    "$(for n in "${nodes[@]}"; do q "$n" -c "SELECT count(*) FROM pg_subscription WHERE suborigin = 'none' AND subbinary"; done |
       paste -sd ,)" "2,2,2"

# ---- the writers
batch_sql() {
    sql="INSERT INTO item (writer, n) SELECT $writer, g FROM generate_series($1, $2) g RETURNING id"
}
# The victim's own client kills its postmaster when it has written half its rows: the kill comes in the middle of
# the writing however fast or slow the machine is. The postmaster's children (backends, walsenders, apply workers)
# see it gone and exit.
after_batch() {
    [ "$1" = "n$victim" ] && [ "$2" -ge $((rows / 2)) ] && [ ! -e "$work/killed" ] || return 0
    local postmaster
    postmaster=$(head -n 1 "$CLUSTERS/n$victim/postmaster.pid")
    kill -KILL "$postmaster"
    echo "$postmaster $EPOCHREALTIME" >"$work/killed"
}
for n in "${nodes[@]}"; do
    writer=$n writer "n$n" "${port[$n]}" "$rows" "$batch" "$work" &
    writers[$n]=$!
done

# ---- the kill, and the victim started again once every process of its old life has gone (a process still
# attached to the old shared memory, or an unreaped postmaster still named in postmaster.pid, would keep the new
# postmaster from starting)
wait_for '[ -e "$work/killed" ]' 300 "the kill of server $victim"
read -r postmaster killed_at <"$work/killed"
old_processes() {
    [ -e "/proc/$postmaster" ] ||
        find /proc/[0-9]*/cwd -maxdepth 0 -lname "$(realpath "$CLUSTERS/n$victim")" 2>/dev/null | grep -q .
}
wait_for '! old_processes' 60 "the processes of the killed server to end"
# (pg_ctl warns of the old postmaster.pid, whose process is gone)
cluster_run "n$victim" "${port[$victim]}" "${settings[@]}" 2>"$work/restart.err" || { cat "$work/restart.err"; exit 1; }
restarted_at=$EPOCHREALTIME

for n in "${nodes[@]}"; do
    wait_for "[ -e '$work/n$n.rows' ]" 300 "the writer on server $n"
    wait "${writers[$n]}"
done
writers=()
first_batch=$(cat "$work"/n*.started | sort -n | head -n 1)
writing_ended=$(cat "$work"/n*.finished | sort -n | tail -n 1)

# ---- every server gets every row: each server's own rows, counted there, are what the others must have
origin_counts=$(for n in "${nodes[@]}"; do q "$n" -c "SELECT count(*) FROM item WHERE writer = $n"; done | paste -sd '|')
counts_of() { q "$1" -c "SELECT count(*) FILTER (WHERE writer = 1), count(*) FILTER (WHERE writer = 2),
                                count(*) FILTER (WHERE writer = 3) FROM item"; }
converged() {
    local n
    for n in "${nodes[@]}"; do [ "$(counts_of "$n")" = "$origin_counts" ] || return 1; done
}
# (not fatal: when they do not converge, the checks below show what is missing and the logs why)
deadline=$((SECONDS + 120))
until converged || [ $SECONDS -ge $deadline ]; do sleep 0.05; done
converged_at=$EPOCHREALTIME
check "every server got every row within 120 s (each server's own rows: ${origin_counts//|/, })" \
    "$(for n in "${nodes[@]}"; do counts_of "$n"; done | paste -sd ' ')" \
    "$origin_counts $origin_counts $origin_counts"

# ---- the checks
log_victim=$(cluster_log "n$victim")
expect "server $victim's postmaster killed (SIGKILL) half-way through its rows and started again: crash recovery ran," \
      "its client connected again" \
    "$(grep -q 'database system was interrupted\|was not properly shut down; automatic recovery in progress' "$log_victim" &&
       echo recovered) $([ -s "$work/n$victim.lost" ] && echo reconnected)" "recovered reconnected"

# the acknowledged keys, as id,writer
for n in "${nodes[@]}"; do acked_keys "$work" "n$n" | sed "s/\$/,$n/"; done >"$work/acked.csv"
acked=$(wc -l <"$work/acked.csv")
check "every client had its $rows rows acknowledged, $((rows * ${#nodes[@]})) keys in all, none twice" \
    "$acked $(cut -d , -f 1 "$work/acked.csv" | sort | uniq -d | wc -l)" "$((rows * ${#nodes[@]})) 0"

declare -A found digest
for n in "${nodes[@]}"; do
    IFS='|' read -r acked_there all distinct_u distinct_t wrong_node digest[$n] <<<"$(q "$n" <<SQL
CREATE TEMP TABLE acked (id bigint, writer int);
\copy acked FROM '$work/acked.csv' (FORMAT csv)
SELECT (SELECT count(*) FROM acked a JOIN item i ON i.id = a.id AND i.writer = a.writer),
       count(*), count(DISTINCT u), count(DISTINCT t), count(*) FILTER (WHERE snowflake_node(id) <> writer),
       md5(string_agg(concat_ws(' ', id, u, t, writer, n), E'\n' ORDER BY id))
FROM item;
SQL
)"
    found[$n]=$all
    expect "server $n has every acknowledged key (as its writer's), $acked of $acked; every key's snowflake_node() is" \
          "its writer's server; ulid and typeid unique too ($all rows)" \
        "$acked_there $wrong_node $distinct_u $distinct_t" "$acked 0 $all $all"
done
check "the three servers' tables are identical (md5 of every row ordered by key: ${digest[1]})" \
    "${digest[2]} ${digest[3]} ${found[2]} ${found[3]}" "${digest[1]} ${digest[1]} ${found[1]} ${found[1]}"

# No error in any log (every server is a subscriber) but those of the lost connections, each told by what it says
# and which process said it (an apply worker names its subscription when it starts, a walsender the slot):
# - an apply worker of a subscription to the killed server: its stream ended (as it read or as it sent feedback); the
#   server refused it while down or starting up; or (its successor, started at once) the origin was still held by the
#   worker whose stream ended;
# - the killed server's own subscriptions, started again: their slot on a publisher still held by the walsender of
#   their old life (its walsender there says so too).
# Anything else, a duplicate key above all (the apply of a row whose key a server has already), fails.
classify_errors() {  # classify_errors NODE: a line "expected: KIND" or "unexpected: LINE" per ERROR or PANIC
    awk -v node="$1" -v victim="$victim" -v file="n$1.log" '
        match($0, /\[[0-9]+\]/) { pid = substr($0, RSTART + 1, RLENGTH - 2) }
        / LOG:  logical replication apply worker for subscription "[^"]+" has started/ {
            s = $0; sub(/.*for subscription "/, "", s); sub(/".*/, "", s); subscription[pid] = s
        }
        !/ (ERROR|PANIC):  / { next }
        {
            msg = $0; sub(/.* (ERROR|PANIC):  /, "", msg)
            mine = subscription[pid]
            to_victim = mine ~ ("^s[0-9]+_from_" victim "$")
            of_victim = node == victim && mine ~ ("^s" victim "_from_[0-9]+$")
            other = msg; sub(/.* PID /, "", other)
            kind = ""
            if (/ PANIC:  /) kind = ""
            else if (to_victim && msg ~ /^could not (receive|send) data (from|to) WAL stream: server closed the connection unexpectedly/)
                kind = "apply worker: the stream from the killed server ended"
            else if (to_victim && msg ~ /could not connect to the publisher: .*(Connection refused|the database system is (starting up|not yet accepting connections|in recovery mode))/)
                kind = "apply worker: the killed server refused the connection (down or starting up)"
            else if (to_victim && msg ~ /server closed the connection unexpectedly/)
                kind = "apply worker: the connection to the killed server closed"
            else if (to_victim && msg ~ /^replication origin with ID [0-9]+ is already active for PID [0-9]+$/ && subscription[other] == mine)
                kind = "apply worker: the origin still held by the worker whose stream ended"
            else if (of_victim && msg ~ ("^could not start WAL streaming: ERROR:  replication slot \"" mine "\" is active for PID"))
                kind = "the killed server'"'"'s apply worker: its slot still held by its old walsender"
            else if (node != victim && msg ~ ("^replication slot \"s" victim "_from_" node "\" is active for PID [0-9]+$"))
                kind = "walsender: the slot of the killed server'"'"'s subscription still held by its old walsender"
            if (kind == "") print "unexpected: " file ": " $0; else print "expected: " file ": " kind
        }' "$(cluster_log "n$1")"
}
errors=$(for n in "${nodes[@]}"; do classify_errors "$n"; done)
check "no error in the servers' logs but the $(grep -c '^expected: ' <<<"$errors") of lost connections" \
    "$(grep '^unexpected: ' <<<"$errors" | cut -c 13- || true)" ""
grep '^expected: ' <<<"$errors" | cut -c 11- | sort | uniq -c | sed 's/^ */    /'

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
elapsed=$(seconds "$first_batch" "$writing_ended")
# how long the other servers' clients went on writing after the kill (the kill came while they wrote)
others_ended=$(for n in "${nodes[@]}"; do [ "$n" = "$victim" ] || cat "$work/n$n.finished"; done | sort -n | tail -n 1)
echo "PostgreSQL $(q 1 -c "SHOW server_version"): $acked rows acknowledged ($rows per server, batches of $batch) in" \
     "$elapsed s: $(awk -v n="$acked" -v s="$elapsed" 'BEGIN { printf "%d", n / s }') rows/s; server $victim down" \
     "$(seconds "$killed_at" "$restarted_at") s, the others writing for $(seconds "$killed_at" "$others_ended") s after" \
     "the kill; rows per server ${found[1]}, ${found[2]}, ${found[3]} ($((found[1] - acked)) committed but" \
     "unacknowledged); replication lag $(seconds "$writing_ended" "$converged_at") s; $((SECONDS - started)) s in all;" \
     "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
