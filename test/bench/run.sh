#!/usr/bin/env bash
# SQL-level benchmark of idcodec (run by `make bench`).
#
# Every row's query is timed ROUNDS times inside one psql session (rounds interleaved across the rows, so a slow
# phase of the machine hits all of them alike); the best (minimum) wall time counts, and its ratio to the row's
# floor is compared with the target from DESIGN.md "Performance". Parallelism and JIT are off, so ratios compare
# single-process work. A verdict of "misses" does not fail the run (a benchmark is not a test); an SQL error does.
#
# To add a benchmark: append to BENCH_ROWS below (and to SETUP_SQL if it needs prepared data).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/setup.sh
source "$HERE/../../scripts/setup.sh"   # also cds to the repo root

ROUNDS=${BENCH_ROUNDS:-5}
ROWS=1000000
SALT='this is my salt'

# One-time preparation, run in the benchmark session before any timing (temp tables live as long as the session).
SETUP_SQL=$(cat <<SQL
CREATE TEMP TABLE ids AS SELECT hashids_encode(i, '$SALT', 8) AS id FROM generate_series(1, $ROWS) i;
VACUUM (FREEZE, ANALYZE) ids;
CREATE TEMP TABLE sqids AS SELECT sqids_encode(i) AS id FROM generate_series(1, $ROWS) i;
VACUUM (FREEZE, ANALYZE) sqids;
CREATE TEMP TABLE objectids AS
    SELECT o, objectid_compress(o) AS c FROM (SELECT substr(md5(i::text) || md5(i::text), 1, 24) AS o
                                             FROM generate_series(1, $ROWS) i) AS t;
CREATE TEMP TABLE uuids AS SELECT u, uuid_compress(u) AS c FROM (SELECT gen_random_uuid() AS u
                                                                 FROM generate_series(1, $ROWS) i) AS t;
CREATE TEMP TABLE base62 AS SELECT base62_encode(i) AS c, base62_mixup(i) AS m FROM generate_series(1, $ROWS) i;
VACUUM (FREEZE, ANALYZE) objectids, uuids, base62;
-- 64 MB of pseudo-random bytes, stored uncompressed out of line (STORAGE EXTERNAL)
CREATE TEMP TABLE big (data bytea);
ALTER TABLE big ALTER COLUMN data SET STORAGE EXTERNAL;
INSERT INTO big SELECT decode(string_agg(md5(i::text), '' ORDER BY i), 'hex') FROM generate_series(1, 4194304) i;
SQL
)

# Benchmark rows: name | floor (the row whose time is the denominator; empty = itself) | target ratio (empty =
# information only) | query. Names must be unique; a floor must be listed before the rows that use it.
BENCH_ROWS=(
    "floor|||SELECT count(i::text) FROM generate_series(1, $ROWS) i"
    "ids table scan|floor||SELECT count(id) FROM ids"
    "hashids_encode|floor|1.6|SELECT count(hashids_encode(i, '$SALT', 8)) FROM generate_series(1, $ROWS) i"
    "hashids_decode_one|floor|2.0|SELECT count(hashids_decode_one(id, '$SALT', 8)) FROM ids"
    "hashids_decode|floor|2.0|SELECT count(hashids_decode(id, '$SALT', 8)) FROM ids"
    "sqids_encode|floor|2.0|SELECT count(sqids_encode(i)) FROM generate_series(1, $ROWS) i"
    "sqids_decode|floor||SELECT count(sqids_decode(id)) FROM sqids"
    "objectid_compress|floor|1.3|SELECT count(objectid_compress(o)) FROM objectids"
    "objectid_decompress|floor|1.3|SELECT count(objectid_decompress(c)) FROM objectids"
    "uuid_compress|floor|1.3|SELECT count(uuid_compress(u)) FROM uuids"
    "uuid_decompress|floor|1.3|SELECT count(uuid_decompress(c)) FROM uuids"
    "base62_encode|floor|1.3|SELECT count(base62_encode(i)) FROM generate_series(1, $ROWS) i"
    "base62_decode|floor|1.3|SELECT count(base62_decode(c)) FROM base62"
    "base62_mixup|floor|1.3|SELECT count(base62_mixup(i)) FROM generate_series(1, $ROWS) i"
    "base62_unmixup|floor|1.3|SELECT count(base62_unmixup(m)) FROM base62"
    "detoast 64 MB|||SELECT get_byte(data, 67108863) FROM big"
    "cdc_chunks 64 MB|detoast 64 MB|1.3|SELECT count(*) FROM big, cdc_chunks(big.data)"
)

if [ -n "${PGHOST:-}" ] && psql -Xqtc 'select 1' >/dev/null 2>&1; then
    log "using the running server at PGHOST=$PGHOST and the idcodec installed there"
else
    build_and_install
    start_cluster
fi

sql_literal() { printf "'%s'" "${1//\'/\'\'}"; }

values=()
ord=0
for row in "${BENCH_ROWS[@]}"; do
    IFS='|' read -r name floor target query <<<"$row"
    ord=$((ord + 1))
    values+=("($ord, $(sql_literal "$name"), $(sql_literal "${floor:-$name}"), ${target:-NULL}::numeric, $(sql_literal "$query"))")
done
values_sql=$(IFS=','; echo "${values[*]}")

log "benchmarking ${#BENCH_ROWS[@]} queries over $ROWS rows, best of $ROUNDS"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
SET temp_buffers = '512MB';
SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE EXTENSION IF NOT EXISTS idcodec;

$SETUP_SQL

CREATE TEMP TABLE bench (ord int PRIMARY KEY, name text UNIQUE, floor text, target numeric, query text,
                         best_ms double precision);
INSERT INTO bench (ord, name, floor, target, query) VALUES $values_sql;

DO \$bench\$
DECLARE
    r record;
    t0 timestamptz;
    ms double precision;
    discard record;
BEGIN
    FOR round IN 1..$ROUNDS LOOP
        FOR r IN SELECT ord, query FROM bench ORDER BY ord LOOP
            t0 := clock_timestamp();
            EXECUTE r.query INTO discard;
            ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
            UPDATE bench SET best_ms = least(best_ms, ms) WHERE ord = r.ord;
        END LOOP;
    END LOOP;
END
\$bench\$;

\pset footer off
\echo
SELECT b.name,
       to_char(b.best_ms, 'FM999990.0') AS "best ms",
       to_char(b.best_ms / f.best_ms, 'FM990.00') AS "ratio to floor",
       coalesce('≤ ' || to_char(b.target, 'FM990.0'), '-') AS target,
       CASE WHEN b.target IS NULL THEN '-'
            WHEN b.best_ms / f.best_ms <= b.target THEN 'meets'
            ELSE 'misses' END AS verdict
FROM bench b JOIN bench f ON f.name = b.floor
ORDER BY b.ord;
SQL
exit 0
