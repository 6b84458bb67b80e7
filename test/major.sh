#!/usr/bin/env bash
# idcodec on one PostgreSQL major built from its stock release source (test/lib/postgres_build.sh, cached outside
# the checkout): it builds with -Werror, and on a throwaway cluster of that major every pg_regress suite passes with
# the same expected files (time_types with the alternative pg_regress allows, expected/time_types_1.out: 15 and 16
# cannot merge-join ulid with uuid), the hostile battery and the tr_TR.UTF-8 run find no crash and no internal
# error, a fresh install and every earlier version updated have the same catalog, a non-superuser installs both
# extensions, the scripts withstand the traps of a role with only CREATE on a database
# (test/integration/script_attack.sh), and the major's own features behave as documented
# (test/integration/server_features.sh), the types give the
# answers of PostgreSQL's own in every query shape and plan (test/integration/planner.sh), snowflake keys hold
# under pressure, a default role's attack, clock faults and file operations (test/integration/snowflake_*.sh) and,
# from 16, in a mesh of three writers by logical replication (test/replication/snowflake_mesh.sh), and the Citus
# suite passes on a cluster of that major with its Citus (test/integration/citus.sh; on the newest major also the
# live update and the workload under faults, citus_update.sh and citus_faults.sh).
#
#   bash test/major.sh VERSION              e.g. 17.6 (18.6 is built with assertions)
#
# Prints "ok: STEP" or "FAILED: STEP" per step (scripts/test.sh counts them) and a summary line. Without the
# release tarball (postgresql-VERSION.tar.gz in $IDCODEC_PEERS or beside the checkout) it prints "SKIPPED: ..." and
# exits 77.
source "$(dirname "$0")/../scripts/setup.sh"
source test/lib/postgres_build.sh
source test/lib/citus_build.sh
set +e
version=$1
assert=$([ "$version" = "$POSTGRES_ASSERT_RELEASE" ] && echo assert)
major=${version%%.*}
STEP_SECONDS=${IDCODEC_STEP_SECONDS:-1200}

postgres_require "$version"
ensure_test_locale
prefix=$(postgres_prefix "$version")
export PG_BIN=$prefix/bin
# that major's psql and pg_regress too (a psql is made for its own and older servers)
export PATH=$PG_BIN:$PATH

failures=0
passed=0
# step NAME COMMAND...: runs it with a time limit (a function must be exported), prints ok or FAILED and its last
# lines
step() {
    local name=$1 out status started=$SECONDS
    shift
    # --foreground: in our process group, so an interrupt reaches the step at once
    out=$(timeout --foreground "$STEP_SECONDS" bash -c '"$@"' step "$@" 2>&1)
    status=$?
    if [ $status -eq 0 ]; then
        echo "ok: $name — $(tail -n 1 <<<"$out") ($((SECONDS - started)) s)"
        passed=$((passed + 1))
    elif [ $status -eq 77 ]; then
        echo "SKIPPED: $name: $(grep -m 1 '^SKIPPED:' <<<"$out" | sed 's/^SKIPPED: *//')"
    else
        [ $status -eq 124 ] && out+=$'\n'"(stopped after ${STEP_SECONDS}s)"
        # indented, so the step's own ok lines are not counted as this script's
        echo "FAILED: $name"; tail -n 40 <<<"$out" | sed 's/^/    /'
        failures=$((failures + 1))
    fi
}

copy=$IDCODEC_ROOT/build/pg-$version
# build_check: idcodec built against this release in its own copy of the sources, warnings as errors.
build_check() {
    idcodec_build_for "$PG_BIN/pg_config" "$copy" || { tail -n 40 "$copy/build.log"; return 1; }
    echo "built against $("$PG_BIN/pg_config" --version)$([ "$assert" = assert ] && echo ' (assertions on)'), no warning"
}
export copy assert
export -f build_check idcodec_build_for idcodec_copy_sources
step "builds with -Werror" build_check
[ $failures -eq 0 ] || exit 1

source test/lib/cluster.sh
export PGPORT
PGPORT=$(free_port)
cluster_start "pg$major" "$PGPORT" "max_connections=120" || exit 1
export PGHOST=$CLUSTERS PGUSER=postgres PGDATABASE=postgres SERVER_LOG
SERVER_LOG=$(cluster_log "pg$major")
started=$(psql -X -At -c "SELECT pg_postmaster_start_time()")
if [ "$assert" = assert ] && [ "$(psql -X -At -c "SHOW debug_assertions")" != on ]; then
    echo "FAILED: PostgreSQL $version was to run with assertions, but debug_assertions is off"
    exit 1
fi

# regress: the pg_regress suites, run from that copy (make installcheck), with their expected files.
regress() {
    make -C "$copy" -s installcheck PG_CONFIG="$PG_BIN/pg_config" >"$copy/installcheck.log" 2>&1
    local status=$?
    [ $status -eq 0 ] || { head -n 80 "$copy/regression.diffs" 2>/dev/null; tail -n 5 "$copy/installcheck.log"; }
    grep -E 'tests passed|tests failed' "$copy/installcheck.log" | sed 's/^ *//'
    return $status
}
export -f regress
step "pg_regress suites (the same expected files)" regress
step "hostile battery" bash test/integration/hostile.sh
step "suites in $TEST_LOCALE" bash test/integration/locale.sh
step "catalog: fresh install = every earlier version updated" bash test/integration/catalog.sh
step "trusted: a non-superuser installs both extensions" bash test/integration/trusted.sh
step "script attack: traps planted by a role with only CREATE catch no script" bash test/integration/script_attack.sh
step "docs: every function documented, every example as shown" bash test/integration/docs.sh
step "server features of PostgreSQL $major" bash test/integration/server_features.sh
step "the types under the planner: amvalidate, the differential query test, 1.5.0's families caught" \
    bash test/integration/planner.sh
step "snowflake IDs under pressure: a slowed clock, 8 sessions, parallel workers, a step back, a crash" \
    bash test/integration/snowflake_pressure.sh
step "snowflake attack: a default role's pushes (1, 2, 8 sessions) stay within 10 ms of the clock, a failover after a push repeats no key, a client's own idcodec.node_id is refused" \
    env IDCODEC_PUSH_SECONDS=5 bash test/integration/snowflake_attack.sh
step "snowflake IDs and a faulty clock: steps back of 5 ms, 2 s and 1 hour, a jump to the layout's end, the reservation file removed, replaced and truncated" \
    bash test/integration/snowflake_clock.sh
step "snowflake_convert_column: every row judged (REPEATABLE READ, SERIALIZABLE, FORCE ROW LEVEL SECURITY), the table as it was after a refusal, a converted table through pg_dump" \
    bash test/integration/snowflake_convert.sh
# Subscriptions with origin = none (a mesh of writers) came with 16: this suite is not for 15.
if [ "$major" -ge 16 ]; then
    step "snowflake keys from three writers in a logical replication mesh (origin = none), one postmaster killed" \
        bash test/replication/snowflake_mesh.sh
fi
step "Citus $(citus_release) on a coordinator and two workers: the whole Citus suite" bash test/integration/citus.sh
# The cluster's live update and its workload under faults run on the newest major here, as on 15 in the default
# suites.
if [ "$major" = "${POSTGRES_RELEASES[-1]%%.*}" ]; then
    step "Citus: ALTER EXTENSION UPDATE across the cluster under a pgbench load" bash test/integration/citus_update.sh
    step "Citus: the distributed workload through a shard move and a worker's SIGKILL" \
        bash test/integration/citus_faults.sh
fi

now=$(psql -X -At -c "SELECT pg_postmaster_start_time()")
if [ "$now" != "$started" ] || grep -qE 'terminated by signal|TRAP:' "$SERVER_LOG"; then
    echo "FAILED: the server ran without a crash or a failed assertion"
    grep -E -B2 -A5 'terminated by signal|TRAP:' "$SERVER_LOG" | head -n 20
    failures=$((failures + 1))
else
    echo "ok: no backend crashed$([ "$assert" = assert ] && echo ' and no assertion failed')"
    passed=$((passed + 1))
fi
echo "PostgreSQL $version: $passed passed, $failures failed"
[ $failures -eq 0 ]
