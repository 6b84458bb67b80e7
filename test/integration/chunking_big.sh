#!/usr/bin/env bash
# cdc_chunks over a 500 MB value stored uncompressed: memory stays near the slice size (not the value's), and
# statement_timeout stops it promptly.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
size=$((500 * 1000 * 1000))
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" \
  -c "DROP TABLE IF EXISTS idcodec_big" -c "CREATE UNLOGGED TABLE idcodec_big (data bytea)" \
  -c "ALTER TABLE idcodec_big ALTER COLUMN data SET STORAGE EXTERNAL" \
  -c "INSERT INTO idcodec_big SELECT pg_read_binary_file('/dev/urandom', 0, $size)"
out=$(mktemp)
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'rm -f "$out"; q -c "DROP TABLE IF EXISTS idcodec_big" >/dev/null 2>&1 || true
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT

# The backend's private memory (RssAnon: shared buffers excluded), sampled while it chunks the whole value.
source test/lib/backend_probe.sh
growth=$(peak_private_mb "$out" \
    "SELECT count(*) || ' ' || sum(length) FROM idcodec_big, cdc_chunks(idcodec_big.data, digest => 'sha256')") ||
    growth=""
read -r chunks bytes < <(tail -n 1 "$out") || true
tap_diag "500 MB value: $chunks chunks covering $bytes bytes; the backend's private memory peaked $growth MB above its start"
check "the chunks of a 500 MB value cover it (bytes)" "${bytes:-none}" "$size"
if [ -n "$growth" ] && [ "$growth" -le 64 ]; then
    tap_ok "the backend's private memory grew by at most 64 MB while chunking a 500 MB value"
else
    tap_not_ok "the backend's private memory grew by at most 64 MB while chunking a 500 MB value" \
        "it grew by ${growth:-an unknown number of} MB$([ -n "$growth" ] || echo ": the probe found no session")"
fi

# statement_timeout: the query ends soon after the timeout fires. Measured on the backend's CPU, the work done
# between the cancel and the chunker noticing it (at most one chunk of 8 MB and its digest); on a busy machine the
# wall clock also counts the time other processes had the cores.
read -r wall cpu <<<"$(cancel_ms "PERFORM count(*) FROM idcodec_big, cdc_chunks(idcodec_big.data, 'rabin', 512 * 1024,
                                          1024 * 1024, 8 * 1024 * 1024, digest => 'sha256')")"
if [ -n "$wall" ] && [ "$wall" -ge 0 ]; then
    tap_ok "chunking 500 MB outlasts statement_timeout (300 ms): the timeout is tested"
    tap_diag "canceled $wall ms after statement_timeout (300 ms), $cpu ms of it on the backend's CPU"
    if [ "$cpu" -le 100 ]; then
        tap_ok "the query ran at most 100 ms on the backend's CPU past statement_timeout"
    else
        tap_not_ok "the query ran at most 100 ms on the backend's CPU past statement_timeout" "it ran $cpu ms"
    fi
else
    tap_not_ok "chunking 500 MB outlasts statement_timeout (300 ms): the timeout is tested" \
        "it finished within 300 ms, or the probe found no session"
    tap_skip "the query ran at most 100 ms on the backend's CPU past statement_timeout: the timeout was not tested"
fi

tap_done
