#!/usr/bin/env bash
# cdc_chunks over a 500 MB value stored uncompressed: memory stays near the slice size (not the value's), and
# statement_timeout stops it promptly.
set -euo pipefail
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
size=$((500 * 1000 * 1000))
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" \
  -c "DROP TABLE IF EXISTS idcodec_big" -c "CREATE UNLOGGED TABLE idcodec_big (data bytea)" \
  -c "ALTER TABLE idcodec_big ALTER COLUMN data SET STORAGE EXTERNAL" \
  -c "INSERT INTO idcodec_big SELECT pg_read_binary_file('/dev/urandom', 0, $size)"
out=$(mktemp)
trap 'rm -f "$out"; q -c "DROP TABLE IF EXISTS idcodec_big" >/dev/null 2>&1 || true' EXIT

# The backend's private memory (RssAnon: shared buffers excluded), sampled while it chunks the whole value.
source "$(dirname "$0")/../lib/backend_probe.sh"
growth=$(peak_private_mb "$out" \
    "SELECT count(*) || ' ' || sum(length) FROM idcodec_big, cdc_chunks(idcodec_big.data, digest => 'sha256')")
read -r chunks bytes < <(tail -n 1 "$out")
echo "500 MB value: $chunks chunks covering $bytes bytes; the backend's private memory peaked $growth MB above its start"
[ "$bytes" -eq "$size" ] || { echo "chunks do not cover the value"; exit 1; }
[ "$growth" -le 64 ] || { echo "private memory grew by $growth MB while chunking a 500 MB value"; exit 1; }

# statement_timeout: the query ends soon after the timeout fires. Measured on the backend's CPU, the work done
# between the cancel and the chunker noticing it (at most one chunk of 8 MB and its digest); on a busy machine the
# wall clock also counts the time other processes had the cores.
read -r wall cpu <<<"$(cancel_ms "PERFORM count(*) FROM idcodec_big, cdc_chunks(idcodec_big.data, 'rabin', 512 * 1024,
                                          1024 * 1024, 8 * 1024 * 1024, digest => 'sha256')")"
[ "$wall" -ge 0 ] || { echo "chunking 500 MB finished within 300 ms: the timeout was not tested"; exit 1; }
echo "canceled $wall ms after statement_timeout (300 ms), $cpu ms of it on the backend's CPU"
[ "$cpu" -le 100 ] || { echo "the query ran $cpu ms on the CPU past statement_timeout (more than 100 ms)"; exit 1; }
