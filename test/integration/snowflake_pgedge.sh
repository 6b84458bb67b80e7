#!/usr/bin/env bash
# Snowflake IDs against pgEdge's snowflake extension 2.6.0, built from its source, on a cluster of its own (the
# node settings and a restart stay off the shared cluster). Every comparison is exact:
#   a. IDs made by pgEdge's snowflake.nextval() on nodes 1, 2 and 511 (set by ALTER SYSTEM and a reload) and 1023
#      (after a restart with the setting on the command line): pgEdge's get_epoch, get_node and get_count equal
#      idcodec's snowflake_timestamp (as numeric seconds), snowflake_node and snowflake_counter, and the node is the
#      one set;
#   b. IDs made by idcodec's snowflake_generate() on nodes 0, 1, 512 and 1023: pgEdge reads the node set, idcodec's
#      counter and time, and a time within the generating statement's;
#   c. random non-negative bigints (fixed seed, full and narrower widths) and the edges of each field: both read
#      the same time, node and counter;
#   d. for the time of each pgEdge ID (from get_epoch, converted without floating point), snowflake_least is the ID
#      with its node and counter cleared, for the start and the end of that millisecond, and pgEdge's IDs in their
#      order have non-decreasing least IDs.
# One line per check, "ok: ..." or "FAILED: ..." with the first mismatching case. Needs snowflake-2.6.0.tar.gz
# beside the checkout (or in $IDCODEC_PEERS).
set -euo pipefail
cd "$(dirname "$0")/../.."
archive=$(find_peer snowflake-2.6.0.tar.gz)
if [ -z "$archive" ]; then
    echo "SKIPPED: pgEdge snowflake: its 2.6.0 source (snowflake-2.6.0.tar.gz) is not beside the checkout"
    exit 77
fi
source test/lib/peer_extension_build.sh
pgedge_snowflake_install "$archive" "${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config"

source test/lib/cluster.sh
port=$(free_port)
cluster_start snowflake "$port"
q() { cluster_psql "$port" -d postgres "$@"; }
PER_NODE=2500
q <<'SQL'
CREATE EXTENSION idcodec;
CREATE EXTENSION snowflake;
CREATE TABLE pgedge_ids (ord bigserial, id bigint NOT NULL, node int NOT NULL);
CREATE TABLE idcodec_ids (ord bigserial, id bigint NOT NULL, node int NOT NULL, started timestamptz NOT NULL,
                          ended timestamptz);
CREATE TABLE values_ids (ord bigserial, id bigint NOT NULL);
SQL

# pgEdge defines snowflake.node only when its library is loaded, so ALTER SYSTEM needs the LOAD first; a new
# session is forked with the new value only once the postmaster has read the reloaded file, hence the wait.
set_pgedge_node() {
    local tries=0
    q -c "LOAD 'snowflake'" -c "ALTER SYSTEM SET snowflake.node = $1" -c "SELECT pg_reload_conf()" >/dev/null
    until [ "$(q -c "SHOW snowflake.node")" = "$1" ]; do
        tries=$((tries + 1))
        [ $tries -lt 100 ] || { echo "FAILED: snowflake.node did not become $1 after a reload"; exit 1; }
        sleep 0.1
    done
}
generate_pgedge() {
    q -c "INSERT INTO pgedge_ids (id, node) SELECT snowflake.nextval(), $1 FROM generate_series(1, $PER_NODE)"
}
for node in 1 2 511; do
    set_pgedge_node "$node"
    generate_pgedge "$node"
done
# A setting given on the command line outranks the one ALTER SYSTEM wrote.
cluster_stop snowflake
cluster_run snowflake "$port" "snowflake.node=1023"
generate_pgedge 1023

for node in 0 1 512 1023; do
    q <<SQL
SET idcodec.node_id = $node;
INSERT INTO idcodec_ids (id, node, started) SELECT snowflake_generate(), $node, statement_timestamp() FROM generate_series(1, $PER_NODE);
UPDATE idcodec_ids SET ended = clock_timestamp() WHERE node = $node AND ended IS NULL;
SQL
done

# Random values from a fixed seed, 63 bits made of two draws (one double holds fewer), a quarter of them shifted
# narrower so small times, nodes and counters come too; then each field's edges.
q <<'SQL'
SELECT setseed(0.1963);
INSERT INTO values_ids (id)
SELECT CASE WHEN g % 4 = 0 THEN v >> shift ELSE v END
FROM (SELECT g, (floor(random() * 2147483648)::bigint << 32) | floor(random() * 4294967296)::bigint AS v,
             floor(random() * 63)::int AS shift
      FROM generate_series(1, 4000) g) r;
INSERT INTO values_ids (id)
SELECT unnest(ARRAY[0, 1, 4095, 4096, 1023::bigint << 12, 4194303, 4194304, 4194305,
                    ((1::bigint << 41) - 1) << 22, (((1::bigint << 41) - 1) << 22) | 4095,
                    (((1::bigint << 41) - 1) << 22) | (1023 << 12), 1::bigint << 62, (1::bigint << 62) - 1,
                    9223372036854775806, 9223372036854775807]);
SQL

# How much the pgEdge IDs cover: milliseconds and counters.
q -c "SELECT format('pgEdge made %s IDs over %s milliseconds, counters up to %s', count(*),
                    count(DISTINCT id >> 22), max(id & 4095)) FROM pgedge_ids"

failures=0
# compare NAME EXPECTED_CASES QUERY: QUERY gives a row (ord, ok, detail) per case; every case must be ok and there
# must be EXPECTED_CASES of them.
compare() {
    local out total bad first
    if ! out=$(q -F '|' -c "SELECT count(*), count(*) FILTER (WHERE ok IS NOT TRUE),
                                   (array_agg(detail ORDER BY ord) FILTER (WHERE ok IS NOT TRUE))[1]
                            FROM ($3) c" 2>&1); then
        echo "FAILED: $1: $out"
        failures=$((failures + 1))
        return
    fi
    IFS='|' read -r total bad first <<<"$out"
    if [ "$bad" -ne 0 ]; then
        echo "FAILED: $1: $bad of $total cases differ, the first: $first"
        failures=$((failures + 1))
    elif [ "$total" -ne "$2" ]; then
        echo "FAILED: $1: $total cases, expected $2"
        failures=$((failures + 1))
    else
        echo "ok: $1 ($total cases)"
    fi
}

# decoded TABLE [COLUMNS]: each ID of TABLE read by both, pe* by pgEdge and ic* by idcodec. get_epoch gives numeric
# Unix seconds with three decimals; extract(epoch ...) of a timestamptz gives numeric seconds exactly too (six
# decimals), and numeric equality ignores the scale.
decoded() {
    echo "SELECT ord, id, ${2:+$2, }snowflake.get_epoch(id) AS pe, snowflake.get_node(id) AS pe_node,
                 snowflake.get_count(id) AS pe_count, extract(epoch FROM snowflake_timestamp(id)) AS ic,
                 snowflake_node(id) AS ic_node, snowflake_counter(id) AS ic_count
          FROM $1"
}
same="pe = ic AND pe_node = ic_node AND pe_count = ic_count"
shown="'pgEdge %s s, node %s, count %s; idcodec %s s, node %s, counter %s'"
fields="pe, pe_node, pe_count, ic, ic_node, ic_count"

compare "pgEdge's snowflake.nextval() IDs on nodes 1, 2, 511 and 1023 read alike by both, with the node set" \
    $((PER_NODE * 4)) "
    SELECT ord, $same AND pe_node = node AS ok, format('id %s (node %s): ' || $shown, id, node, $fields) AS detail
    FROM ($(decoded pgedge_ids node)) d"

# The IDs' milliseconds lie between the generating statement's start and the end of the run, plus one millisecond
# for each 4096 IDs (a full counter borrows the next one).
slack_ms=$(((PER_NODE * 4 + 4095) / 4096))
compare "idcodec's snowflake_generate() IDs on nodes 0, 1, 512 and 1023 read alike by both, with the node and time" \
    $((PER_NODE * 4)) "
    SELECT ord, $same AND pe_node = node AND pe * 1000 >= floor(extract(epoch FROM started) * 1000)
                AND pe * 1000 <= floor(extract(epoch FROM ended) * 1000) + $slack_ms AS ok,
           format('id %s (node %s, made from %s to %s): ' || $shown, id, node, started, ended, $fields) AS detail
    FROM ($(decoded idcodec_ids 'node, started, ended')) d"

compare "random non-negative bigints (seeded) and field edges read alike by both" 4015 "
    SELECT ord, $same AS ok, format('id %s: ' || $shown, id, $fields) AS detail
    FROM ($(decoded values_ids)) d"

# The time of a pgEdge ID as a timestamptz without floating point: whole milliseconds times an interval of one
# (exact in interval arithmetic at this size), checked against get_epoch again.
compare "snowflake_least of pgEdge IDs' times is the ID without node and counter, in the IDs' order" $((PER_NODE * 4)) "
    SELECT ord, extract(epoch FROM at) = pe AND least_start = (id >> 22) << 22 AND least_end = least_start
                AND (previous IS NULL OR previous <= least_start) AS ok,
           format('id %s: pgEdge %s s, as timestamptz %s; least IDs %s (start of the ms) and %s (its end), expected %s, the previous ID''s %s',
                  id, pe, at, least_start, least_end, (id >> 22) << 22, previous) AS detail
    FROM (SELECT *, lag(least_start) OVER (ORDER BY id) AS previous
          FROM (SELECT ord, id, pe, at, snowflake_least(at) AS least_start,
                       snowflake_least(at + interval '999 microseconds') AS least_end
                FROM (SELECT ord, id, snowflake.get_epoch(id) AS pe,
                             timestamptz 'epoch' + (snowflake.get_epoch(id) * 1000)::bigint * interval '1 millisecond' AS at
                      FROM pgedge_ids) t) l) o"

echo "pgEdge snowflake: $failures of 4 checks failed"
[ "$failures" -eq 0 ]
