#!/usr/bin/env bash
# Resource bounds at the largest allowed arguments, as numbers: for each long operation, the backend's peak private
# memory (RssAnon, sampled) above its start while it runs, and how long after statement_timeout fires the query
# ends (cancel latency): on the wall clock, and as the backend's time on a CPU, which must stay within 100 ms (the
# work done between the cancel and the loop noticing it; on a busy machine the wall clock also counts the time
# others had the cores). Prints the table docs/development.md shows (as TAP diagnostics), and one test per operation:
# its cancel latency.
# IDCODEC_LIMITS_MB (default 1000) sizes the value that is chunked.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
mb=${IDCODEC_LIMITS_MB:-1000}
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
q <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS limits_value, limits_setting;
CREATE UNLOGGED TABLE limits_value (data bytea);
ALTER TABLE limits_value ALTER COLUMN data SET STORAGE EXTERNAL;
INSERT INTO limits_value SELECT pg_read_binary_file('/dev/urandom', 0, $mb * 1000 * 1000);
CREATE UNLOGGED TABLE limits_setting AS
SELECT (SELECT array_agg(substr(md5(i::text), 1, 4 + i % 2)) FROM generate_series(1, 100000) i) AS words,
       (SELECT array_agg(substr(md5(i::text), 1, 8)) FROM generate_series(1, 10000) i) AS needles,
       (SELECT string_agg(md5(i::text), ' ') FROM generate_series(1, 300000) i) AS haystack;
SQL
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'q -c "DROP TABLE IF EXISTS limits_value, limits_setting" >/dev/null 2>&1 || true
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT

source test/lib/backend_probe.sh

# row LABEL MEMORY_SQL CANCEL_SQL: the table's row (a diagnostic), and a test of the cancel latency; a probe that
# finds no session fails that test rather than the suite
row() {
    local memory wall cpu
    memory=$(peak_private_mb /dev/null "$2") || memory="?"
    read -r wall cpu <<<"$(cancel_ms "$3")"
    tap_diag "$(printf '| %s | %s MB | %s ms (%s ms on the CPU) |' "$1" "$memory" "${wall:-?}" "${cpu:-?}")"
    if [ -z "$cpu" ] || [ "$wall" -lt 0 ] || [ "$cpu" -gt 100 ]; then
        tap_not_ok "$1: cancelled within 100 ms on the CPU after statement_timeout" \
            "cancel latency ${cpu:-unknown} ms on the CPU: more than 100 ms, or the work ended before the timeout"
    else
        tap_ok "$1: cancelled within 100 ms on the CPU after statement_timeout"
    fi
}
tap_diag "| operation | peak private memory | cancel latency |"
tap_diag "| --- | --- | --- |"
row "hashids_encode with min_length 1,000,000 (20 IDs; cancelled among 100,000)" \
    "SELECT count(hashids_encode(i, 'limits', 1000000)) FROM generate_series(1, 20) i" \
    "PERFORM count(hashids_encode(i, 'limits', 1000000)) FROM generate_series(1, 100000) i"
row "sqids with a 100,000-word blocklist (prepared once; cancelled among 1,000 preparations)" \
    "SELECT sqids_encode(1, '0123456789abcdefghij', 255, words) FROM limits_setting" \
    "SET LOCAL idcodec.cache_size = 0; PERFORM count(sqids_encode(1, '0123456789abcdefghij', m % 256, words)) FROM limits_setting, generate_series(1, 1000) m"
row "rabin_karp_find with 10,000 needles over 10 MB (cancelled among 50 scans)" \
    "SELECT count(*) FROM limits_setting, rabin_karp_find(haystack, needles)" \
    "PERFORM count(*) FROM limits_setting, generate_series(1, 50) g, rabin_karp_find(haystack || g, needles)"
row "cdc_chunks over a $mb MB value stored uncompressed, with SHA-256 digests" \
    "SELECT count(*) FROM limits_value, cdc_chunks(data, digest => 'sha256')" \
    "PERFORM count(*) FROM limits_value, generate_series(1, 10) g, cdc_chunks(data, min_size => 4095 + g, digest => 'sha256')"
row "100,000 distinct cached hashids settings (cache_size = 100000; cancelled among 1,000,000)" \
    "SET idcodec.cache_size = 100000; SELECT count(hashids_encode(1, 'salt ' || i, 8)) FROM generate_series(1, 100000) i" \
    "SET LOCAL idcodec.cache_size = 100000; PERFORM count(hashids_encode(1, 'salt ' || i, 8)) FROM generate_series(1, 1000000) i"
tap_done
