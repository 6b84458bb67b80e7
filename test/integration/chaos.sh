#!/usr/bin/env bash
# The libpq chaos driver (test/chaos/chaos_driver.cpp) against a cluster of its own: 32 connections run the mixed
# workload while queries are cancelled, backends terminated and one backend killed with SIGKILL (crash recovery);
# afterwards nothing acknowledged may be lost or wrong and nothing unacknowledged half-applied. Three resolves in four
# follow one hot code, whose hit count must be exact as every other's.
# IDCODEC_CHAOS_SECONDS (default 20) and IDCODEC_CHAOS_CONNECTIONS (default 32) size the run.
# TAP: the driver's verdict read from its summary line, one test for each of the conditions of its exit status.
source "$(dirname "$0")/../lib/suite.sh"
make -s build/chaos_driver PG_CONFIG="${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config" >&2
source test/lib/cluster.sh
port=$(free_port)
cluster_start chaos "$port" "max_connections=100" "restart_after_crash=on" >&2
cluster_psql "$port" -d postgres -f test/chaos/schema.sql >&2
status=0
summary=$(build/chaos_driver "host=localhost port=$port user=postgres dbname=postgres connect_timeout=5" \
    --connections "${IDCODEC_CHAOS_CONNECTIONS:-32}" --seconds "${IDCODEC_CHAOS_SECONDS:-20}" --seed "$RANDOM") ||
    status=$?
tap_diag "$summary"
line=$(grep -m1 '^chaos: ' <<<"$summary" || true)
# field NAME: the number after NAME in the summary line ("lost 0", "cancels 12"), or nothing
field() { sed -nE "s/.*[ ;,]$1 ([0-9]+).*/\1/p" <<<"$line"; }
if [ -z "$line" ]; then
    tap_not_ok "the chaos driver prints its summary (exit status $status)" "$summary"
    tap_done
    exit 1
fi
check "nothing acknowledged is lost" "lost $(field lost)" "lost 0"
check "nothing acknowledged is wrong and nothing unacknowledged half-applied" "wrong $(field wrong)" "wrong 0"
verified=$(field verified)
if [ "${verified:-0}" -gt 0 ]; then tap_ok "acknowledged operations were verified ($verified)"
else tap_not_ok "acknowledged operations were verified" "$line"; fi
# three resolves in four follow one hot code (a viral link): its count holds every acknowledged one, and no more than
# were sent
read -r hot_acked hot_sent hot_hits < <(sed -nE 's/.*hot code: resolves ([0-9]+) acknowledged of ([0-9]+), hits ([0-9]+).*/\1 \2 \3/p' <<<"$line")
if [ "${hot_acked:-0}" -gt 0 ] && [ "$hot_hits" -ge "$hot_acked" ] && [ "$hot_hits" -le "$hot_sent" ]; then
    tap_ok "the hot code: $hot_acked follows acknowledged, $hot_sent sent, $hot_hits counted"
else
    tap_not_ok "the hot code: every acknowledged follow counted, none beyond those sent" "$line"
fi
# the driver's own rule: every kind of chaos at least once
for kind in "cancels:queries were cancelled" "terminations:backends were terminated" \
            "crashes:a backend was killed with SIGKILL and the server recovered"; do
    count=$(field "${kind%%:*}")
    if [ "${count:-0}" -gt 0 ]; then tap_ok "${kind#*:} (${kind%%:*} $count)"
    else tap_not_ok "${kind#*:}" "$line"; fi
done
# (a non-zero exit with every condition above met would be a condition this suite does not know)
check "the chaos driver's exit status agrees" "$status" "$([ "$TAP_FAILED" = 0 ] && echo 0 || echo 1)"
tap_done
