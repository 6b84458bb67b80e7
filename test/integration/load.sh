#!/usr/bin/env bash
# Load test: many concurrent clients encode and decode with many settings; every answer must round-trip and no
# backend may fail. Bounded: IDCODEC_LOAD_SECONDS (default 10) with 16 clients.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
psql -X -q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
script=$(mktemp)
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'rm -f "$script"; if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
cat >"$script" <<'SQL'
\set n random(0, 4611686018427387903) * 2 + random(0, 1)
\set s random(1, 300)
\set m random(0, 40)
SELECT CASE WHEN hashids_decode_one(hashids_encode(:n, 'salt ' || :s, :m), 'salt ' || :s, :m) = :n
             AND hashids_decode(hashids_encode(ARRAY[:n, :s, :m], 'salt ' || :s, :m), 'salt ' || :s, :m) = ARRAY[:n, :s, :m]::bigint[]
            THEN 1 ELSE 1 / 0 END;
SQL
pg_bench=/usr/lib/postgresql/15/bin/pgbench
status=0
out=$($pg_bench -n -c 16 -j 2 -T "${IDCODEC_LOAD_SECONDS:-10}" -f "$script" 2>&1) || status=$?
tap_diag "$(grep -E "number of (transactions actually processed|failed)|tps" <<<"$out" || true)"
# Three tests, the three ways the run can fail: pgbench's exit status, a client aborted or a transaction failed (a
# round trip that did not hold divides by zero), and no transaction at all.
if [ $status = 0 ]; then
    tap_ok "pgbench runs 16 clients for ${IDCODEC_LOAD_SECONDS:-10} s without an error"
else
    tap_not_ok "pgbench runs 16 clients for ${IDCODEC_LOAD_SECONDS:-10} s without an error" \
        "exit status $status; $(tail -n 30 <<<"$out")"
fi
if grep -qE "aborted|number of failed transactions: [1-9]" <<<"$out"; then
    tap_not_ok "no client aborted and no transaction failed (every answer round-trips)" "$(tail -n 30 <<<"$out")"
else
    tap_ok "no client aborted and no transaction failed (every answer round-trips)"
fi
if grep -qE "number of transactions actually processed: [1-9]" <<<"$out"; then
    tap_ok "transactions were processed"
else
    tap_not_ok "transactions were processed" "$(tail -n 30 <<<"$out")"
fi
tap_done
