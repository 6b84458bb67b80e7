#!/usr/bin/env bash
# The cache of prepared configurations keeps its memory budget (64 MB) whatever idcodec.cache_size says: for each
# family's most expensive configurations, a flood of distinct settings at cache_size = 100000 grows the backend's
# private memory by at most the budget plus 8 MB more than the same flood at cache_size = 0 (no caching at all).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"

budget_mb=64
slack_mb=8

# growth CACHE_SIZE WARM_UP FLOOD: MB of private memory (RssAnon) a fresh backend gains over FLOOD, after WARM_UP.
growth() {
    psql_q <<SQL
CREATE FUNCTION pg_temp.anon_kb() RETURNS bigint LANGUAGE sql AS
\$\$ SELECT (regexp_match(pg_read_file('/proc/self/status'), 'RssAnon:\s+(\d+)'))[1]::bigint \$\$;
SET idcodec.cache_size = $1;
$2 \g /dev/null
SELECT pg_temp.anon_kb() AS before \gset
$3 \g /dev/null
SELECT (pg_temp.anon_kb() - :before) / 1024;
SQL
}

# A blocklist of 100,000 words over the alphabet's characters, and a 20,000-character alphabet.
psql_q <<'SQL'
SET client_min_messages = warning;
DROP TABLE IF EXISTS memory_settings;
CREATE TABLE memory_settings AS
SELECT (SELECT array_agg(substr(md5(i::text), 1, 4 + i % 2)) FROM generate_series(1, 100000) i) AS words,
       (SELECT string_agg(chr(i), '') FROM generate_series(256, 20255) i) AS wide_alphabet;
SQL

# bounded FAMILY WARM_UP FLOOD: one test, that the flood at cache_size = 100000 grows the backend by at most the
# budget and the slack more than at cache_size = 0
bounded() {
    local family=$1 warm_up=$2 flood=$3
    local uncached cached
    uncached=$(growth 0 "$warm_up" "$flood")
    cached=$(growth 100000 "$warm_up" "$flood")
    local limit=$((uncached + budget_mb + slack_mb))
    local measured="+${cached} MB with cache_size = 100000, +${uncached} MB with 0 (limit ${limit} MB)"
    if [ "$cached" -le "$limit" ]; then
        tap_ok "$family: memory bounded by the budget"
        tap_diag "$family: $measured"
    else
        tap_not_ok "$family: memory bounded by the budget" "$measured"
    fi
}

bounded "rabin chunkers (100000 distinct max_size)" \
    "SELECT count(*) FROM cdc_chunks('\x00'::bytea, 'rabin', 64, 64, 1000)" \
    "SELECT count(*) FROM generate_series(1064, 101063) s, cdc_chunks('\x00'::bytea, 'rabin', 64, 64, s)"
bounded "buzhash chunkers (100000 distinct seeds)" \
    "SELECT count(*) FROM cdc_chunks('\x00'::bytea, 'buzhash', 64, 64, 8192, 0)" \
    "SELECT count(*) FROM generate_series(1, 100000) s, cdc_chunks('\x00'::bytea, 'buzhash', 64, 64, 8192, s)"
bounded "sqids with a 100000-word blocklist (40 distinct min_length)" \
    "SELECT sqids_encode(1, '0123456789abcdefghij', 255, words) FROM memory_settings" \
    "SELECT count(sqids_encode(1, '0123456789abcdefghij', m, words)) FROM memory_settings, generate_series(0, 39) m"
bounded "hashids with a 20000-character alphabet (300 distinct salts)" \
    "SELECT hashids_encode(1, 'warm', 0, wide_alphabet) FROM memory_settings" \
    "SELECT count(hashids_encode(i, 'salt ' || i, 8, wide_alphabet)) FROM memory_settings, generate_series(1, 300) i"
bounded "hashids with distinct salts (40000)" \
    "SELECT hashids_encode(1, 'warm', 8)" \
    "SELECT count(hashids_encode(i, 'salt ' || i || repeat('x', 200), 8)) FROM generate_series(1, 40000) i"

psql_q -c "DROP TABLE memory_settings"
tap_done
