#!/usr/bin/env bash
# Load test: many concurrent clients encode and decode with many settings; every answer must round-trip and no
# backend may fail. Bounded: IDCODEC_LOAD_SECONDS (default 10) with 16 clients.
set -euo pipefail
psql -X -q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'SQL'
\set n random(0, 4611686018427387903) * 2 + random(0, 1)
\set s random(1, 300)
\set m random(0, 40)
SELECT CASE WHEN hashids_decode_one(hashids_encode(:n, 'salt ' || :s, :m), 'salt ' || :s, :m) = :n
             AND hashids_decode(hashids_encode(ARRAY[:n, :s, :m], 'salt ' || :s, :m), 'salt ' || :s, :m) = ARRAY[:n, :s, :m]::bigint[]
            THEN 1 ELSE 1 / 0 END;
SQL
pg_bench=/usr/lib/postgresql/15/bin/pgbench
out=$($pg_bench -n -c 16 -j 2 -T "${IDCODEC_LOAD_SECONDS:-10}" -f "$script" 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -E "number of (transactions actually processed|failed)|tps" || true
if echo "$out" | grep -qE "aborted|number of failed transactions: [1-9]"; then echo "$out"; exit 1; fi
echo "$out" | grep -qE "number of transactions actually processed: [1-9]" || { echo "$out"; exit 1; }
