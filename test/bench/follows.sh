#!/usr/bin/env bash
# The short-URL service under a viral link (run by `make bench`): follows a second from 8 clients (pgbench, prepared
# statements, each follow its own transaction) on a cluster of its own with PostgreSQL's default durability (fsync
# and synchronous_commit on), over the 10,000 links of examples/shorturl.sql's link table:
#   - every follow on one hot code;
#   - follows spread uniformly over the 10,000 codes;
#   - read-only lookups of the hot code's URL, for reference;
#   - every follow on the hot code with synchronous_commit off for the follow alone (SET LOCAL), the user's choice:
#     a crash may then lose the hits of the last moments (at most about 3 × wal_writer_delay), never corrupt a count.
# The four run interleaved, BENCH_FOLLOW_ROUNDS times (default 3) for BENCH_FOLLOW_SECONDS each (default 10); the best
# of each counts. Target: the hot rate at least 0.9 times the uniform one.
# Then the service's batch calls: 100 codes resolved, and 100 new URLs shortened, as 100 single calls (100
# transactions) against one call with an array, from one client.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/setup.sh
source "$HERE/../../scripts/setup.sh"   # also cds to the repo root
build_and_install
source test/lib/cluster.sh
ROUNDS=${BENCH_FOLLOW_ROUNDS:-3}
SECONDS_EACH=${BENCH_FOLLOW_SECONDS:-10}
ALPHABET=s9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut  # examples/shorturl.sql's

port=$(free_port)
scripts=$(mktemp -d)
chmod 755 "$scripts"
trap 'cluster_stop_all; rm -rf "$scripts"' EXIT
log "the short-URL follows: a cluster with default durability (port $port)"
cluster_start follows "$port" "fsync=on" "max_connections=120" >&2
q() { cluster_psql "$port" -d postgres "$@"; }
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" >/dev/null
q -f examples/shorturl.sql >/dev/null
q -c "INSERT INTO shorturl.link (url) SELECT 'https://example.com/' || g FROM generate_series(4, 10000) g" \
  -c "VACUUM ANALYZE shorturl.link" -c "CHECKPOINT" >/dev/null

follow="SELECT shorturl.follow(base62_mixup(:id, '$ALPHABET'));"
printf '\\set id 1000001\n%s\n' "$follow" >"$scripts/hot.sql"
printf '\\set id random(1000000, 1009999)\n%s\n' "$follow" >"$scripts/uniform.sql"
printf "\\\\set id 1000001\nSELECT url FROM shorturl.link WHERE code = base62_mixup(:id, '%s');\n" "$ALPHABET" \
    >"$scripts/lookup.sql"
printf '\\set id 1000001\nBEGIN;\nSET LOCAL synchronous_commit = off;\n%s\nCOMMIT;\n' "$follow" >"$scripts/hot_async.sql"

# rate SCRIPT CLIENTS SECONDS: pgbench's transactions a second (initial connections excluded)
rate() {
    "$PG_BIN/pgbench" -h localhost -p "$port" -U postgres -n -M prepared -c "$2" -j "$(( $2 < 2 ? 1 : 2 ))" -T "$3" \
        -f "$scripts/$1" postgres 2>&1 | sed -nE 's/^tps = ([0-9.]+).*/\1/p'
}

declare -A best=()
workloads=(hot uniform lookup hot_async)
for _ in $(seq 1 "$ROUNDS"); do
    for workload in "${workloads[@]}"; do
        tps=$(rate "$workload.sql" 8 "$SECONDS_EACH")
        best[$workload]=$(awk -v a="${best[$workload]:-0}" -v b="${tps:-0}" 'BEGIN { print (b > a ? b : a) }')
    done
done
hits=$(q -c "SELECT count(*) || ' rows, ' || max(hits) || ' in the hot code''s shared row' FROM shorturl.hit_count" \
           2>/dev/null || echo "none (hits kept in the link rows)")
echo
echo "short-URL follows, 8 clients, best of $ROUNDS × $SECONDS_EACH s | follows/s | against uniform"
for workload in "${workloads[@]}"; do
    case $workload in
        hot) name="every follow on one hot code" ;;
        uniform) name="follows spread over 10,000 codes" ;;
        lookup) name="read-only lookup of the hot code" ;;
        hot_async) name="hot code, synchronous_commit off (SET LOCAL)" ;;
    esac
    awk -v name="$name" -v t="${best[$workload]}" -v u="${best[uniform]}" \
        'BEGIN { printf "%-48s | %9.0f | %.2f\n", name, t, t / u }'
done
awk -v h="${best[hot]}" -v u="${best[uniform]}" \
    'BEGIN { r = h / u; printf "hot / uniform: %.2f (target >= 0.90: %s)\n", r, (r >= 0.9 ? "met" : "misses") }'
echo "hit_count after the runs: $hits"

# ---- batches of 100, one client: the calls a second, and what one batch saves over 100 single calls
if [ "$(q -c "SELECT to_regprocedure('shorturl.resolve(text[])') IS NULL")" = t ]; then
    echo "(no batch calls in this version of examples/shorturl_service.sql)"
    exit 0
fi
q -c "SELECT count(*) FROM unnest(shorturl.shorten(ARRAY(SELECT 'https://example.com/batch/' || i
                                                          FROM generate_series(1, 100) i)))" >/dev/null
codes=$(q -c "SELECT string_agg(quote_literal(code), ',') FROM (SELECT code FROM shorturl.url_code
              WHERE url LIKE 'https://example.com/batch/%' ORDER BY url) c")
{ for code in ${codes//,/ }; do echo "SELECT shorturl.resolve($code);"; done; } >"$scripts/resolve_singles.sql"
echo "SELECT shorturl.resolve(ARRAY[$codes]);" >"$scripts/resolve_batch.sql"
{
    echo '\set n random(1, 1000000000)'
    for i in $(seq 1 100); do echo "SELECT shorturl.shorten('https://example.com/new/' || :n || '/$i');"; done
} >"$scripts/shorten_singles.sql"
printf "\\\\set n random(1, 1000000000)\nSELECT shorturl.shorten(ARRAY(SELECT 'https://example.com/new/' || :n || '/' || i FROM generate_series(1, 100) i));\n" \
    >"$scripts/shorten_batch.sql"
echo
echo "100 calls, one client, best of $ROUNDS × $SECONDS_EACH s | 100 singles/s | one batch/s | batch saves"
for call in resolve shorten; do
    singles=0 batch=0
    for _ in $(seq 1 "$ROUNDS"); do
        singles=$(awk -v a="$singles" -v b="$(rate "${call}_singles.sql" 1 "$SECONDS_EACH")" 'BEGIN { print (b > a ? b : a) }')
        batch=$(awk -v a="$batch" -v b="$(rate "${call}_batch.sql" 1 "$SECONDS_EACH")" 'BEGIN { print (b > a ? b : a) }')
    done
    awk -v name="$call" -v s="$singles" -v b="$batch" \
        'BEGIN { printf "%-48s | %13.1f | %11.1f | %.1f× faster\n", name "(text) × 100 against " name "(text[])", s, b, b / s }'
done
