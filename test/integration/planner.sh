#!/usr/bin/env bash
# The types under the planner (test/drivers/plan_diff.cpp): every operator class of the extensions passes
# amvalidate, and every operator, in every query shape and under every planner setting of the matrix, gives the
# answer PostgreSQL's own types give; the reference queries (plain uuid and bytea) plan as they do without idcodec.
# The same test must fail on 1.5.0's operator families (that release's install script is the fixture), and an index
# built under 1.5.0 stays valid through the update and deduplicates once rebuilt.
#
#   IDCODEC_PLAN_SEED (default 1) and IDCODEC_PLAN_ROUNDS (default 1) choose the queries, IDCODEC_PLAN_CASES (default
#   3000; 0 for all) about how many cases they make: every query runs, each under a share of the planner settings;
#   `make fuzz-plans` runs every query under every setting, for more rounds and seeds.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
seed=${IDCODEC_PLAN_SEED:-1}
rounds=${IDCODEC_PLAN_ROUNDS:-1}
cases=${IDCODEC_PLAN_CASES:-3000}
dbs=(idcodec_plans idcodec_plans_plain idcodec_plans_150)
for db in "${dbs[@]}"; do
    psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
done
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'for db in "${dbs[@]}"; do psql -X -q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

make -s build/plan_diff PG_CONFIG="$PG_BIN/pg_config" >&2
# both extensions, so the operators and classes of either are tested
q -d idcodec_plans -c "SET client_min_messages = warning" -c "CREATE EXTENSION idcodec_pg_hashids CASCADE"
version=$(q -d idcodec_plans -c "SELECT extversion FROM pg_extension WHERE extname = 'idcodec'")

# ---- the current version: no failure, and enough cases to mean something
description="$version: every query, each under a share of the planner settings, gives the answers of PostgreSQL's own types, in at least 2000 cases"
if out=$(build/plan_diff "dbname=idcodec_plans" --seed "$seed" --rounds "$rounds" --cases "$cases" --plans-without "dbname=idcodec_plans_plain"); then
    summary=$(tail -n 1 <<<"$out")
    counted=$(grep -oP '[0-9]+(?= cases)' <<<"$summary" || true)
    if [ "${counted:-0}" -ge 2000 ]; then tap_ok "$description"; else tap_not_ok "$description" "too few cases: $summary"; fi
    main_summary=${summary#plan_diff: }
    tap_diag "$version: $main_summary"
else
    tap_not_ok "$description" "$(echo "the differential test failed (repeat with IDCODEC_PLAN_SEED=$seed" \
        "IDCODEC_PLAN_ROUNDS=$rounds IDCODEC_PLAN_CASES=$cases):"; head -n 80 <<<"$out")"
fi

# ---- 1.5.0's families, the fixture: the test must find what they break
q -d idcodec_plans_150 -c "CREATE EXTENSION idcodec VERSION '1.5.0'"
status=0
# (the catalog's problems are reported first, so the first failures shown are the classes amvalidate rejects)
out=$(build/plan_diff "dbname=idcodec_plans_150" --seed "$seed" --cases 1000 --show 2) || status=$?
summary=$(tail -n 1 <<<"$out")
description="the same test fails on 1.5.0's families (two classes fail amvalidate, internal errors found)"
if [ $status -eq 1 ] && grep -q 'XX000:' <<<"$summary" && [ "$(grep -c 'fails amvalidate' <<<"$out")" = 2 ]; then
    tap_ok "$description"
    tap_diag "1.5.0: ${summary#plan_diff: }"
else
    tap_not_ok "$description" "the differential test did not catch 1.5.0's broken families (status $status): $summary"
fi

# ---- indexes built under 1.5.0, with duplicates, through the update: valid (amcheck, every heap tuple indexed) and
# not deduplicated until rebuilt; then deduplicated: a ulid index about the size of uuid's over the same values
q -d idcodec_plans_150 <<'SQL'
CREATE EXTENSION amcheck;
CREATE TABLE kept (id ulid, u uuid, t typeid);
INSERT INTO kept SELECT x, x, typeid('user', x) FROM (SELECT gen_ulid() x FROM generate_series(1, 300)) s, generate_series(1, 50);
CREATE INDEX kept_id ON kept (id);
CREATE INDEX kept_u ON kept (u);
CREATE INDEX kept_t ON kept (t);
SQL
sizes() {
    q -d idcodec_plans_150 -c "SELECT format('%s %s', round(pg_relation_size('kept_id')::numeric / pg_relation_size('kept_u'), 2),
                                              pg_relation_size('kept_t'))"
}
read -r ratio_before t_before <<<"$(sizes)"
q -d idcodec_plans_150 -c "ALTER EXTENSION idcodec UPDATE"
checked=$(q -d idcodec_plans_150 -c "SELECT bt_index_check('kept_id', true), bt_index_check('kept_t', true)")
q -d idcodec_plans_150 -c "REINDEX INDEX kept_id" -c "REINDEX INDEX kept_t"
checked+=$(q -d idcodec_plans_150 -c "SELECT bt_index_check('kept_id', true), bt_index_check('kept_t', true)")
read -r ratio_after t_after <<<"$(sizes)"
found=$(q -d idcodec_plans_150 -c "SELECT count(*) FROM kept WHERE id IN (SELECT DISTINCT u FROM kept ORDER BY u LIMIT 3)")
description="indexes built under 1.5.0 stay valid through the update (amcheck with heapallindexed); rebuilt, they deduplicate"
measured="ulid index / uuid index $ratio_before before, $ratio_after after; typeid index $t_before -> $t_after bytes"
if [ "$checked" = "||" ] && [ "$found" = 150 ] && awk -v b="$ratio_before" -v a="$ratio_after" -v tb="$t_before" \
        -v ta="$t_after" 'BEGIN { exit !(b > 2 && a <= 1.1 && ta * 2 < tb) }'; then
    tap_ok "$description"
    tap_diag "$measured"
else
    tap_not_ok "$description" "amcheck '$checked', rows $found (150 expected); $measured"
fi

# ---- and the updated database passes the differential test
description="1.5.0 updated to $version: every query gives PostgreSQL's own answers"
if out=$(build/plan_diff "dbname=idcodec_plans_150" --seed "$((seed + 1))" --cases 1000 --show 5); then
    tap_ok "$description"
    tap_diag "1.5.0 updated to $version: ${out#plan_diff: }"
else
    tap_not_ok "$description" "$(head -n 60 <<<"$out")"
fi

tap_done
