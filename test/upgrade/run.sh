#!/usr/bin/env bash
# A database full of idcodec objects (test/upgrade/source.sql, with examples/shorturl.sql and examples/dedup.sql)
# survives every major upgrade a user makes to the newest major: pg_upgrade from a stock 15 and from 16 and 17, and
# pg_dump/pg_restore from 15. Each source database also holds a table taken over from a real pg_hashids 1.3 built
# from its source. After each upgrade: pg_upgrade --check passes; every stored public ID and digest is as before and
# equal to what the new major computes; amcheck finds every B-tree (heapallindexed) and the GIN index intact; the
# lookups use their indexes; the golden suite passes in the upgraded database; new rows get the IDs the old major
# gave (test/upgrade/verify.sql); ulid = uuid and uuid = ulid are MERGES as documented: kept without it by
# pg_upgrade from 15 and 16 until a superuser runs docs/upgrading.md's two statements, with it from 17 and after
# pg_dump/pg_restore, and a join of a ulid column with a uuid column can then be a merge join.
#
# Reports in TAP (test/lib/tap.sh): one test per step and per check; a step that fails ends that source release's
# tests. The PostgreSQL releases are built once into the cache (test/lib/postgres_build.sh); without a release
# tarball or pg_hashids-1.3.tar.gz (in $IDCODEC_PEERS or beside the checkout) the suite skips as a whole, saying which.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/postgres_build.sh
source test/lib/peer_extension_build.sh
set +e
target=${POSTGRES_RELEASES[-1]}
sources=("$POSTGRES_UPGRADE_SOURCE" "${POSTGRES_RELEASES[@]:0:${#POSTGRES_RELEASES[@]}-1}")
STEP_SECONDS=${IDCODEC_STEP_SECONDS:-900}
# limited COMMAND...: with a time limit, in our process group (an interrupt reaches it at once)
limited() { timeout --foreground "$STEP_SECONDS" "$@"; }
# stop DESCRIPTION [DETAIL]: a failed test that leaves nothing to test after it
stop() { tap_not_ok "$1" "${2:-}"; tap_done; exit 1; }

archive=$(find_peer pg_hashids-1.3.tar.gz)
[ -n "$archive" ] || tap_skip_all "the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout"
# Every release built (or found in the cache) before any test, so that one whose source is missing can still skip the
# suite: a skip must come before any test. The peers are no test: only their failures are reported.
declare -A build_status build_output
for release in "${sources[@]}" "$target"; do
    build_output[$release]=$(postgres_build "$release" 2>&1 >/dev/null)
    build_status[$release]=$?
    [ "${build_status[$release]}" = 77 ] && tap_skip_all "${build_output[$release]}"
    [ "${build_status[$release]}" = 0 ] && [ -n "${build_output[$release]}" ] && printf '%s\n' "${build_output[$release]}" >&2
done
for release in "${sources[@]}" "$target"; do
    [ "${build_status[$release]}" = 0 ] ||
        stop "PostgreSQL $release builds from source" "$(tail -n 30 <<<"${build_output[$release]}")"
done
for release in "${sources[@]}" "$target"; do
    bin=$(postgres_prefix "$release")/bin
    # (under the lock of that release's build directory, which the other suites on that major build in too)
    if with_lock "build-pg-$release" idcodec_build_for "$bin/pg_config" "$IDCODEC_ROOT/build/pg-$release"; then
        tap_ok "idcodec builds for PostgreSQL $release"
    else
        stop "idcodec builds for PostgreSQL $release" "$(tail -n 30 "$IDCODEC_ROOT/build/pg-$release/build.log")"
    fi
done
for release in "${sources[@]}"; do
    out=$(pg_hashids_install "$archive" "$(postgres_prefix "$release")/bin/pg_config" 2>&1 >/dev/null) ||
        stop "pg_hashids 1.3 builds for PostgreSQL $release" "$out"
done

source test/lib/cluster.sh
new_bin=$(postgres_prefix "$target")/bin
work=$CLUSTERS/work
mkdir -p "$work"
chmod 777 "$work"

# The golden suite in an upgraded database: its queries and expected output as they are, less its own CREATE and
# DROP of idcodec_pg_hashids, which that database has already (the taken-over pg_hashids functions depend on it).
mkdir -p "$work/golden/sql" "$work/golden/expected"
grep -vxE '(CREATE|DROP) EXTENSION idcodec_pg_hashids;' sql/golden.sql >"$work/golden/sql/golden.sql"
grep -vxE '(CREATE|DROP) EXTENSION idcodec_pg_hashids;' expected/golden.out >"$work/golden/expected/golden.out"
golden() {  # golden PORT DATABASE
    limited "$("$new_bin/pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" --bindir="$new_bin" --host=localhost \
        --port="$1" --user=postgres --use-existing --dbname="$2" --inputdir="$work/golden" --expecteddir="$work/golden" \
        --outputdir="$work/golden-$2-$1" golden >"$work/golden.log" 2>&1
}

# verify LABEL PORT DATABASE: the checks of verify.sql (its "ok: "/"FAILED: " lines, each a test, labelled) and the
# golden suite
verify() {
    local label=$1 port=$2 db=$3 out line others
    limited "$new_bin/psql" -X -q -h localhost -p "$port" -U postgres -d "$db" -c "ANALYZE" >/dev/null
    out=$(limited "$new_bin/psql" -X -q -At -h localhost -p "$port" -U postgres -d "$db" -f test/upgrade/verify.sql 2>&1)
    while IFS= read -r line; do
        case $line in
            "ok: "*) tap_ok "$label: ${line#ok: }" ;;
            "FAILED: "*) tap_not_ok "$label: ${line#FAILED: }" ;;
        esac
    done <<<"$out"
    others=$(grep -vE '^(ok|FAILED): ' <<<"$out")
    if [ -z "$others" ]; then
        tap_ok "$label: verify.sql says nothing but its checks"
    else
        tap_not_ok "$label: verify.sql says nothing but its checks" "$(head -n 20 <<<"$others")"
    fi
    # one line per check of verify.sql: the extensions, 9 tables, the dedup restore, amcheck, 11 lookups and their
    # rows, 4 tables of new rows
    check "$label: verify.sql made its 34 checks" "$(grep -cE '^(ok|FAILED): ' <<<"$out")" 34
    if golden "$port" "$db"; then
        tap_ok "$label: the golden suite passes in the upgraded database"
    else
        tap_not_ok "$label: the golden suite passes in the upgraded database" \
            "$(head -n 40 "$work/golden-$db-$port/regression.diffs" 2>/dev/null; tail -n 5 "$work/golden.log")"
    fi
}

# merges LABEL PORT DATABASE FROM: ulid = uuid and uuid = ulid after an upgrade. They are MERGES from PostgreSQL 17
# on (idcodec 1.6.2); pg_upgrade brings the catalog over as it was, so from 15 or 16, where they cannot be, they come
# without it, and the two statements docs/upgrading.md gives a superuser set it. From 17, and when pg_restore creates
# the extension anew on the new major (FROM "restore"), they have it already. Then, with hash joins and nested loops
# off, a join of a ulid column with a uuid column is a merge join.
merges() {
    local label=$1 port=$2 db=$3 from=$4 expected found plan what
    local sql=("$new_bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h localhost -p "$port" -U postgres -d "$db")
    local state="SELECT string_agg(oprcanmerge::text, ' ' ORDER BY oprleft::regtype::text COLLATE \"C\") FROM pg_operator
                 WHERE oid IN ('=(ulid,uuid)'::regoperator, '=(uuid,ulid)'::regoperator)"
    expected=$([ "$from" = restore ] || [ "${from%%.*}" -ge 17 ] && echo "true true" || echo "false false")
    if [ "$expected" = "false false" ]; then
        what="$label: ulid = uuid and uuid = ulid come without MERGES, as the old major had them"
    else
        what="$label: ulid = uuid and uuid = ulid are MERGES"
    fi
    found=$(limited "${sql[@]}" -c "$state" 2>&1)
    if [ "$found" != "$expected" ]; then
        tap_not_ok "$what" "oprcanmerge '$found', not '$expected'"
        return
    fi
    tap_ok "$what"
    if [ "$expected" = "false false" ]; then
        what="$label: the two ALTER OPERATOR ... SET (MERGES) of docs/upgrading.md make them MERGES"
        if ! found=$(limited "${sql[@]}" -c "ALTER OPERATOR = (ulid, uuid) SET (MERGES)" \
                         -c "ALTER OPERATOR = (uuid, ulid) SET (MERGES)" -c "$state" 2>&1) || [ "$found" != "true true" ]; then
            tap_not_ok "$what" "$found"
            return
        fi
        tap_ok "$what"
    fi
    plan=$(limited "${sql[@]}" -c "SET enable_hashjoin = off" -c "SET enable_nestloop = off" \
               -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM activity a JOIN event e ON a.id = e.trace" 2>&1)
    if grep -q 'Merge Cond: (.*id = .*trace)' <<<"$plan"; then
        tap_ok "$label: a join of a ulid column with a uuid column is a merge join"
    else
        tap_not_ok "$label: a join of a ulid column with a uuid column is a merge join" "$plan"
    fi
}

# step DESCRIPTION COMMAND...: a step of the upgrade as a test, which passes when COMMAND does (its messages, on
# stderr, explain a failure); a caller goes on to the next source release when it fails
step() {
    local description=$1
    shift
    if "$@" >&2; then tap_ok "$description"; else tap_not_ok "$description"; return 1; fi
}
# env_pg BIN COMMAND...: COMMAND (of test/lib/cluster.sh) with the programs of the installation in BIN
env_pg() {
    # shellcheck disable=SC2034  # read by the functions of test/lib/cluster.sh that COMMAND calls
    local PG_BIN=$1
    shift
    "$@"
}

for release in "${sources[@]}"; do
    old_bin=$(postgres_prefix "$release")/bin
    old=old-$release new=new-$release
    old_port=$(free_port) new_port=$(free_port)
    label="$release → $target"

    # the source database, on the old major
    step "$label: the $release cluster starts" env_pg "$old_bin" cluster_start "$old" "$old_port" || continue
    if loaded=$(limited "$old_bin/psql" -X -q -v ON_ERROR_STOP=1 -h localhost -p "$old_port" -U postgres -d postgres \
            -c "CREATE DATABASE shop" -c '\c shop' -f examples/shorturl.sql -f examples/dedup.sql \
            -f test/upgrade/source.sql 2>&1 >/dev/null); then
        tap_ok "$label: the source database loads on $release"
    else
        tap_not_ok "$label: the source database loads on $release" "$(tail -n 20 <<<"$loaded")"; continue
    fi
    # a clean shutdown, then the new major's cluster and pg_upgrade, run as the server user in a directory it owns;
    # the new cluster's data checksums must be as the old one's (18's initdb turns them on by default)
    checksums=$("$old_bin/psql" -X -At -h localhost -p "$old_port" -U postgres -c "SHOW data_checksums")
    PG_BIN=$old_bin cluster_stop "$old"
    initdb_options=()
    [ "$checksums" = off ] && initdb_options+=(--no-data-checksums)
    step "$label: initdb of the new cluster" env_pg "$new_bin" cluster_init "$new" "${initdb_options[@]}" || continue
    upgrade=(env -C "$work" "$new_bin/pg_upgrade" -b "$old_bin" -B "$new_bin" -d "$CLUSTERS/$old" -D "$CLUSTERS/$new"
             -p "$old_port" -P "$new_port" -s "$CLUSTERS" -U postgres)
    if out=$(as_postgres timeout --foreground "$STEP_SECONDS" "${upgrade[@]}" --check 2>&1); then
        tap_ok "$label: pg_upgrade --check passes"
    else
        tap_not_ok "$label: pg_upgrade --check passes" "$(tail -n 20 <<<"$out")"; continue
    fi
    if out=$(as_postgres timeout --foreground "$STEP_SECONDS" "${upgrade[@]}" --copy 2>&1); then
        tap_ok "$label: pg_upgrade"
    else
        tap_not_ok "$label: pg_upgrade" "$(tail -n 30 <<<"$out")"; continue
    fi
    step "$label: the upgraded cluster starts" env_pg "$new_bin" cluster_run "$new" "$new_port" || continue
    verify "$label (pg_upgrade)" "$new_port" shop
    merges "$label (pg_upgrade)" "$new_port" shop "$release"

    # pg_dump of the old cluster (untouched by a copy-mode pg_upgrade) with the new major's pg_dump, restored into
    # a new database of the new major
    if [ "$release" = "$POSTGRES_UPGRADE_SOURCE" ]; then
        step "$label: the $release cluster starts again" env_pg "$old_bin" cluster_run "$old" "$old_port" || continue
        if out=$(limited "$new_bin/pg_dump" -Fc -h localhost -p "$old_port" -U postgres -d shop -f "$work/shop.dump" 2>&1 &&
                 "$new_bin/psql" -X -q -h localhost -p "$new_port" -U postgres -c "CREATE DATABASE shop_restored" 2>&1 &&
                 limited "$new_bin/pg_restore" --exit-on-error -h localhost -p "$new_port" -U postgres -d shop_restored \
                     "$work/shop.dump" 2>&1); then
            tap_ok "$label: pg_dump and pg_restore"
            verify "$label (pg_dump/pg_restore)" "$new_port" shop_restored
            merges "$label (pg_dump/pg_restore)" "$new_port" shop_restored restore
        else
            tap_not_ok "$label: pg_dump and pg_restore" "$(tail -n 20 <<<"$out")"
        fi
    fi
    cluster_kill "$CLUSTERS/$old"
    cluster_kill "$CLUSTERS/$new"
    rm -rf "${CLUSTERS:?}/$old" "${CLUSTERS:?}/$new"
done
tap_diag "major upgrades to $target: $TAP_FAILED failed"
tap_done
