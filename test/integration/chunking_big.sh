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

# statement_timeout: the query ends soon after the timeout fires.
q 2>&1 <<'SQL'
SET statement_timeout = '200ms';
DO $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    BEGIN
        PERFORM count(*) FROM idcodec_big, cdc_chunks(idcodec_big.data, 'rabin', 512 * 1024, 1024 * 1024,
                                                      8 * 1024 * 1024, digest => 'sha256');
    EXCEPTION WHEN query_canceled THEN
        RAISE NOTICE 'canceled % ms after the start, the timeout being 200 ms',
                     round(1000 * extract(epoch FROM clock_timestamp() - t0));
        IF clock_timestamp() - t0 > interval '300 ms' THEN
            RAISE EXCEPTION 'the query ran more than 100 ms past statement_timeout';
        END IF;
        RETURN;
    END;
    RAISE EXCEPTION 'chunking 500 MB finished within 200 ms: the timeout was not tested';
END $$;
SQL
