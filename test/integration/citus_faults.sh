#!/usr/bin/env bash
# A distributed workload under faults: the cluster driver (test/chaos/cluster_driver.cpp) with 16 connections to the
# coordinator of a Citus cluster (a coordinator, two workers) inserts rows with generated ulid, typeid and hashid
# keys, looks them up by each public form, scans key ranges and shortens and resolves URLs, while a shard moves
# between the workers (logical replication, as Citus moves shards by default) and one worker's postmaster is killed
# with SIGKILL and started again. Afterwards nothing acknowledged may be lost, duplicated or wrong (the driver's
# verdict), and every B-tree index of every shard passes amcheck (bt_index_check with heapallindexed). Prints the
# throughput before, during and after the faults.
# Runs on the PostgreSQL of $PG_BIN with its Citus (test/lib/citus_build.sh). IDCODEC_FAULT_SECONDS (default 10) is
# the length of the phases before and after the faults.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/citus_build.sh
source test/lib/citus_cluster.sh
citus_cluster_require
# (the driver is the suite's tool, not under test: a failed build fails the suite with its output)
if ! make -s build/cluster_driver PG_CONFIG="$PG_BIN/pg_config" >&2; then
    tap_not_ok "the cluster driver (build/cluster_driver) builds"; tap_done || true; exit 1
fi
# fail DESCRIPTION [DETAIL]: a failed test after which the suite cannot go on
fail() { tap_not_ok "$1" "${2:-}"; tap_done || true; exit 1; }
citus_cluster_start >&2 || fail "a Citus $(citus_release) cluster starts: a coordinator and two workers"
tap_ok "a Citus $(citus_release) cluster starts: a coordinator and two workers"
seconds=${IDCODEC_FAULT_SECONDS:-10}
export PGOPTIONS="-c client_min_messages=warning"
c -c "CREATE EXTENSION idcodec" -c "CREATE EXTENSION amcheck"
c -f test/chaos/cluster_schema.sql >/dev/null

out=$(mktemp)
driver=""
# (a run that stops early ends the driver too, and shows what it said)
trap '[ -n "$driver" ] && kill "$driver" 2>/dev/null && wait "$driver"; [ "$TAP_FAILED" -eq 0 ] || tail -n 20 "$out" >&2
      rm -f "$out"; cluster_stop_all' EXIT
build/cluster_driver "host=localhost port=$coordinator user=postgres dbname=postgres connect_timeout=5
                      options='-c statement_timeout=30s'" --connections 16 --seconds 600 --seed "$RANDOM" >"$out" 2>&1 &
driver=$!
# the driver says "ready" once its signal handlers are in place and every connection is up
for _ in $(seq 1 600); do grep -q '^ready$' "$out" && break; sleep 0.1; done
grep -q '^ready$' "$out" || fail "the driver connected its 16 clients" "$(tail -n 20 "$out")"
tap_ok "the driver connected its 16 clients"
sleep 3
kill -USR1 "$driver"  # warmed up: the measured load before the faults
sleep "$seconds"
kill -USR1 "$driver"  # the faults begin

# a shard of the ulid-keyed table moves from worker1 to worker2 under the load
shard=$(c -c "SELECT shardid FROM citus_shards WHERE table_name = 'fleet.event'::regclass AND nodeport = ${workers[0]}
              ORDER BY shardid LIMIT 1") || fail "a shard of fleet.event on worker1"
tap_ok "a shard of fleet.event on worker1"
moved=$(c -c '\timing on' -c "SELECT citus_move_shard_placement($shard, 'localhost', ${workers[0]}, 'localhost', ${workers[1]})" 2>&1) ||
    fail "the shard move (citus_move_shard_placement) succeeds under the load" "$moved"
tap_ok "the shard move (citus_move_shard_placement) succeeds under the load"
move_ms=$(grep -oE 'Time: [0-9.]+' <<<"$moved" | cut -d' ' -f2)
check "the shard moved to worker2 under the load" \
    "$(c -c "SELECT nodeport FROM citus_shards WHERE shardid = $shard")" "${workers[1]}"

# worker1's postmaster killed outright; its backends end when they see it gone, then it starts again (recovery)
worker_dir=$CLUSTERS/$(citus_node_name "${workers[0]}")
postmaster=$(head -n 1 "$worker_dir/postmaster.pid")
kill -KILL "$postmaster"
down_at=$(date +%s.%N)
# (its server starts again once the killed postmaster's backends have gone and released its shared memory)
for _ in $(seq 1 60); do citus_restart_node "${workers[0]}" >/dev/null 2>&1 && break; sleep 1; done
cluster_psql "${workers[0]}" -c "SELECT 1" >/dev/null 2>&1 || fail "worker1 starts again within a minute"
tap_ok "worker1 starts again within a minute"
# transactions of two phases that the kill interrupted are finished before the load goes on
# (retried: just after its start the worker may still refuse the coordinator's connections for a moment)
for _ in $(seq 1 30); do recovered=$(c -c "SELECT recover_prepared_transactions()" 2>&1) && break; sleep 1; done
[[ $recovered =~ ^[0-9]+$ ]] || fail "the prepared transactions the kill interrupted are recovered" "$recovered"
tap_ok "the prepared transactions the kill interrupted are recovered"
up_s=$(awk -v now="$(date +%s.%N)" -v then="$down_at" 'BEGIN { printf "%.1f", now - then }')
check "worker1 is back after SIGKILL of its postmaster and crash recovery" \
    "$(grep -c 'database system was interrupted\|redo done\|database system was not properly shut down' \
        "$(cluster_log "$(citus_node_name "${workers[0]}")")" | awk '{print ($1 > 0)}')" "1"
sleep 3
kill -USR1 "$driver"  # the faults end
sleep "$seconds"
kill -TERM "$driver"
status=0
wait "$driver" || status=$?
summary=$(tail -n 1 "$out")
check "the driver's verdict: nothing acknowledged lost, duplicated or wrong, every read right" \
    "$status $(grep -oE 'lost [0-9]+, duplicated [0-9]+, wrong [0-9]+' <<<"$summary")" "0 lost 0, duplicated 0, wrong 0"
# three resolves in four follow one hot code, its hit rows on one shard: every acknowledged follow counted, none
# beyond those sent
read -r hot_acked hot_sent hot_hits < <(sed -nE 's/.*hot code: resolves ([0-9]+) acknowledged of ([0-9]+), hits ([0-9]+).*/\1 \2 \3/p' <<<"$summary")
if [ "${hot_acked:-0}" -gt 0 ] && [ "$hot_hits" -ge "$hot_acked" ] && [ "$hot_hits" -le "$hot_sent" ]; then
    tap_ok "the hot code: $hot_acked follows acknowledged, $hot_sent sent, $hot_hits counted"
else
    tap_not_ok "the hot code: every acknowledged follow counted, none beyond those sent" "$summary"
fi

# every B-tree index of every shard (on both workers) is clean; the moved shard's old copy is dropped first
c -c "CALL citus_cleanup_orphaned_resources()" >/dev/null
indexes=0
for port in "${workers[@]}"; do
    n=$(cluster_psql "$port" -c "SET citus.override_table_visibility = off" -c "
        SELECT count(bt_index_check(c.oid, true)) FROM pg_class c
        JOIN pg_namespace s ON s.oid = c.relnamespace AND s.nspname = 'fleet'
        JOIN pg_am a ON a.oid = c.relam AND a.amname = 'btree' WHERE c.relkind = 'i'" 2>&1) || { tap_diag "$n"; n=0; }
    indexes=$((indexes + n))
done
# (each worker also has the 5 tables' shells, Citus's copy of the distributed table, with their indexes)
check "every shard index passes amcheck: 5 tables' primary keys in 32 shards, and in the shells on both workers" \
    "$indexes" "$((5 * 32 + 5 * 2))"
check "no backend of any node crashed or failed an assertion" "$(citus_crashes)" ""
tap_diag "$(grep '^failed ' "$out" || true)"
tap_diag "$summary"
tap_diag "measured (2 cores, coordinator and both workers on this machine): shard move ${move_ms} ms under the load;" \
     "worker1 killed and accepting connections again after ${up_s} s; $indexes shard indexes checked"
tap_diag "citus_faults: Citus $(citus_release)"
tap_done
