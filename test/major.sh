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
# under pressure, a default role's attack, clock faults and file operations (test/t/snowflake_*.pl,
# test/integration/snowflake_*.sh) and, from 16, in a mesh of three writers by logical replication
# (test/t/snowflake_mesh.pl), and the Citus suite passes on a cluster of that major with its Citus
# (test/integration/citus.sh; on the newest major also the live update and the workload under faults,
# citus_update.sh and citus_faults.sh).
#
#   bash test/major.sh VERSION              e.g. 17.6 (18.6 is built with assertions)
#
# Reports in TAP: each suite's tests as its own, prefixed with the suite's name (test/lib/tap.sh: tap_include), each
# suite with a time limit. Without the release tarball (postgresql-VERSION.tar.gz in $IDCODEC_PEERS or beside the
# checkout) it skips as a whole.
source "$(dirname "$0")/lib/suite.sh"
source test/lib/postgres_build.sh
source test/lib/citus_build.sh
set +e
version=$1
assert=$([ "$version" = "$POSTGRES_ASSERT_RELEASE" ] && echo assert)
major=${version%%.*}
export TAP_INCLUDE_SECONDS=${IDCODEC_STEP_SECONDS:-1200}

reason=$(postgres_build "$version" 2>&1 >/dev/null)
case $? in
    0) ;;
    77) tap_skip_all "$reason" ;;
    *) tap_not_ok "PostgreSQL $version builds from source" "$(tail -n 30 <<<"$reason")"; tap_done; exit ;;
esac
ensure_test_locale
prefix=$(postgres_prefix "$version")
export PG_BIN=$prefix/bin
# that major's psql and pg_regress too (a psql is made for its own and older servers)
export PATH=$PG_BIN:$PATH

# idcodec built against this release in its own copy of the sources, warnings as errors
copy=$IDCODEC_ROOT/build/pg-$version
if with_lock "build-pg-$version" idcodec_build_for "$PG_BIN/pg_config" "$copy"; then
    tap_ok "builds with -Werror against $("$PG_BIN/pg_config" --version)$([ "$assert" = assert ] && echo ' (assertions on)')"
else
    tap_not_ok "builds with -Werror against $("$PG_BIN/pg_config" --version)" "$(tail -n 40 "$copy/build.log")"
    tap_done
    exit
fi

source test/lib/cluster.sh
PGPORT=$(free_port)
cluster_start "pg$major" "$PGPORT" "max_connections=120" >&2 || { tap_not_ok "a cluster of PostgreSQL $version starts"; tap_done; exit; }
PGHOST=$CLUSTERS PGUSER=postgres PGDATABASE=postgres SERVER_LOG=$(cluster_log "pg$major")
export PGHOST PGPORT PGUSER PGDATABASE SERVER_LOG
started=$(psql -X -At -c "SELECT pg_postmaster_start_time()")
if [ "$assert" = assert ]; then
    check "PostgreSQL $version runs with assertions" "$(psql -X -At -c "SHOW debug_assertions")" on
fi

# suite NAME [ENVIRONMENT ...]: a suite, whether in bash (test/integration/, on this cluster) or on PostgreSQL's TAP
# framework (test/t/, on clusters of its own made with this major's programs)
suite() {
    local name=$1
    shift
    if [ -f "test/t/$name.pl" ]; then
        tap_include "$name" env "$@" bash test/t/run.sh "test/t/$name.pl"
    else
        tap_include "$name" env "$@" bash "test/integration/$name.sh"
    fi
}

# the pg_regress suites, run from that copy, with the same expected files
tap_include pg_regress bash test/regress/run.sh "$copy"
suite hostile
suite locale
suite catalog
suite trusted
suite script_attack
suite docs
suite server_features
suite planner
suite snowflake_pressure
suite snowflake_attack IDCODEC_PUSH_SECONDS=5
suite snowflake_clock
suite snowflake_disk
suite snowflake_convert
# the reservation file's errors on a build with assertions (they check the LWLock's use)
suite snowflake_file
# Subscriptions with origin = none (a mesh of writers) came with 16: this suite is not for 15.
[ "$major" -ge 16 ] && suite snowflake_mesh
suite citus
# The cluster's live update and its workload under faults run on the newest major here, as on 15 in the default
# suites.
if [ "$major" = "${POSTGRES_RELEASES[-1]%%.*}" ]; then
    suite citus_update
    suite citus_faults
fi

now=$(psql -X -At -c "SELECT pg_postmaster_start_time()")
if [ "$now" != "$started" ] || grep -qE 'terminated by signal|TRAP:' "$SERVER_LOG"; then
    tap_not_ok "no backend crashed$([ "$assert" = assert ] && echo ' and no assertion failed')" \
        "$(grep -E -B2 -A5 'terminated by signal|TRAP:' "$SERVER_LOG" | head -n 20)"
else
    tap_ok "no backend crashed$([ "$assert" = assert ] && echo ' and no assertion failed')"
fi
tap_done
