#!/usr/bin/env bash
# postgres_fdw shards: a partitioned table whose partitions are foreign tables on two other local clusters. Shows,
# with EXPLAIN VERBOSE, which idcodec calls postgres_fdw ships in the Remote SQL: with the server option
# `extensions 'idcodec'` a decoder over a foreign column ships; without it none does; an encoder whose text
# arguments are all literals does not ship even with the option (postgres_fdw will not send a collatable call
# whose collation comes only from constants), while the forms that avoid it (decoding the public ID to the key,
# or comparing the stored column with an encoded constant, folded at plan time) ship. Comparisons of a ulid column
# ship with the option (the type and its operators are idcodec's). Every query gives the same rows either way.
source "$(dirname "$0")/../lib/suite.sh"
# The foreign tables live in the default cluster; the shards are clusters of this suite's own. (cluster.sh once:
# the throwaway default cluster has sourced it already, and sourcing it again would forget that cluster.)
suite_cluster
declare -F cluster_start >/dev/null || source test/lib/cluster.sh
shards=("$(free_port)" "$(free_port)")
for i in 0 1; do
    cluster_start "shard$((i + 1))" "${shards[$i]}"
    cluster_psql "${shards[$i]}" -d postgres <<SQL
CREATE EXTENSION idcodec;
CREATE TABLE account (id bigint PRIMARY KEY, public_id text NOT NULL);
INSERT INTO account SELECT g, hashids_encode(g, 'fdw salt', 8) FROM generate_series($((i * 50000 + 1)), $(((i + 1) * 50000))) g;
CREATE INDEX ON account (public_id);
ANALYZE account;
SQL
done

q() { psql -X -q -At -v ON_ERROR_STOP=1 -d idcodec_fdw "$@"; }
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS idcodec_fdw" \
     -c "CREATE DATABASE idcodec_fdw"
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION postgres_fdw" -c "CREATE EXTENSION idcodec"
for mode in shipping plain; do
    option=$([ $mode = shipping ] && echo ", extensions 'idcodec'" || true)
    q <<SQL
CREATE TABLE account_$mode (id bigint NOT NULL, public_id text NOT NULL) PARTITION BY RANGE (id);
CREATE SERVER shard1_$mode FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'localhost', port '${shards[0]}', dbname 'postgres'$option);
CREATE SERVER shard2_$mode FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'localhost', port '${shards[1]}', dbname 'postgres'$option);
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1_$mode OPTIONS (user 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2_$mode OPTIONS (user 'postgres');
CREATE FOREIGN TABLE account_${mode}_1 PARTITION OF account_$mode FOR VALUES FROM (1) TO (50001)
    SERVER shard1_$mode OPTIONS (table_name 'account');
CREATE FOREIGN TABLE account_${mode}_2 PARTITION OF account_$mode FOR VALUES FROM (50001) TO (100001)
    SERVER shard2_$mode OPTIONS (table_name 'account');
SQL
done

remote_sql() { q -c "EXPLAIN (VERBOSE, COSTS OFF) $1" | grep 'Remote SQL' || true; }
# shipping_cases SELECT TABLE SHIPPED RESULT: for each line "form|condition|with the option|without it" on stdin,
# whether "SELECT ... FROM TABLE_<mode> WHERE condition" ships (its Remote SQL matches the extended regular expression
# SHIPPED) with the server option and without it, and that it gives RESULT either way: two tests per mode.
shipping_cases() {
    local select=$1 table=$2 pattern=$3 result=$4 form where ships_with ships_without mode query shipped expected label
    while IFS='|' read -r form where ships_with ships_without; do
        for mode in shipping plain; do
            query="SELECT $select FROM ${table}_$mode WHERE $where"
            shipped=$(remote_sql "$query" | grep -qE "$pattern" && echo ships || echo local)
            expected=$([ $mode = shipping ] && echo "$ships_with" || echo "$ships_without")
            label="$form, $([ $mode = shipping ] && echo "with extensions 'idcodec'" || echo "without the option")"
            check "$label: $expected" "$shipped" "$expected"
            check "$label: gives $result" "$(q -c "$query" 2>&1)" "$result"
        done
        tap_diag "e.g. Remote SQL: $(remote_sql "SELECT $select FROM ${table}_shipping WHERE $where" | head -n 1 | sed 's/^ *//')"
    done
}
target=77777
hashid=$(q -c "SELECT hashids_encode($target, 'fdw salt', 8)")
# shipped: the Remote SQL carries the query's idcodec call or its folded constant
shipping_cases id account "hashids_|$target|'$hashid'" "$target" <<SQL
decoder over the foreign column|hashids_decode_one(public_id, 'fdw salt', 8) = $target|ships|local
stored column = encoded constant (folded)|public_id = hashids_encode($target, 'fdw salt', 8)|ships|ships
key = decoded constant (folded)|id = hashids_decode_one('$hashid', 'fdw salt', 8)|ships|ships
encoder over the foreign key, literal settings|hashids_encode(id, 'fdw salt', 8) = '$hashid'|local|local
SQL

# ulid comparisons ship where the server lists idcodec: the type and its operators are idcodec's (so even uuid's
# operator on a ulid column, relabelled, stays local without the option); every form finds its rows either way.
cluster_psql "${shards[0]}" -d postgres >/dev/null <<'SQL'
CREATE TABLE event (id ulid PRIMARY KEY, n int NOT NULL);
INSERT INTO event SELECT ulid_least(timestamptz '2026-01-01 00:00:00+00' + i * interval '1 second'), i FROM generate_series(1, 10000) i;
ANALYZE event;
SQL
for mode in shipping plain; do
    q -c "CREATE FOREIGN TABLE event_$mode (id ulid, n int) SERVER shard1_$mode OPTIONS (table_name 'event')"
done
at="'2026-01-01 01:00:00+00'"
# shipped: the Remote SQL has a WHERE clause; each condition holds for a known number of rows
shipping_cases "count(*)" event "WHERE" 1 <<SQL
ulid = a constant (folded)|id = ulid_least('2026-01-01 00:00:05+00')|ships|local
ulid = uuid (uuid's operator on the ulid)|id = uuid_v7_least($at)::uuid OR id = ulid_least($at)::uuid|ships|local
SQL
shipping_cases "count(*)" event "WHERE" 600 <<SQL
ulid range from two times (folded)|id >= $at::timestamptz::ulid AND id < '2026-01-01 01:10:00+00'::timestamptz::ulid|ships|local
SQL

psql -X -q -c "DROP DATABASE idcodec_fdw"
tap_done
