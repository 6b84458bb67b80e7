#!/usr/bin/env bash
# Installs what is missing, builds idcodec and installs it into a temporary PostgreSQL installation (scripts/setup.sh)
# and runs every suite. `make check` runs this.
# Every suite runs on the default major (Debian's PostgreSQL 15), each on a throwaway cluster of its own; the suites
# that must hold on every major run on 16, 17 and 18 built from their stock sources (test/major.sh), and databases
# are upgraded across majors (test/upgrade/run.sh). The peers (the stock majors, Citus for each) are built once per
# machine into a cache outside the checkout, before the suites that need them. Independent suites run side by side
# (IDCODEC_JOBS at a time, by default one more than the cores); each suite's result is printed as it ends.
# Ends with one line per PostgreSQL major, the time taken and the ten slowest steps, and the line
# "N passed, N failed, N skipped" (tests across all suites).
#
#   bash scripts/test.sh [--quick | --fast]
#       --quick: every suite on the default major only (the other majors and the upgrades are counted as skipped)
#       --fast:  the inner loop: build, install into the cached PostgreSQL 15, the unit tests and the pg_regress
#                suites only (everything else counted as one skipped step)
#
# A check that needs something this machine cannot provide (a peer system's source, a registry) prints
# "SKIPPED: <reason>" and exits 77 when it could run nothing, or exits 0 having run the rest; each SKIPPED line counts
# as one skipped test.
QUICK=0
FAST=0
case ${1:-} in
    --quick) QUICK=1 ;;
    --fast) FAST=1 ;;
    "") ;;
    *) echo "usage: bash scripts/test.sh [--quick | --fast]" >&2; exit 2 ;;
esac
source "$(dirname "$0")/setup.sh"
source test/lib/postgres_build.sh
set +e

PASSED=0
FAILED=0
SKIPPED=0
FAILED_SUITES=()
SKIP_REASONS=()

# record SUITE PASSED FAILED SKIPPED SECONDS: adds a suite's counts to the totals and to its major's (CURRENT_GROUP,
# by default the default major's) and prints its line
STEP_TIMES=()
GROUPS_SEEN=()
declare -A GROUP_PASSED GROUP_FAILED GROUP_SKIPPED
record() {
    local group=${CURRENT_GROUP:-$DEFAULT_MAJOR}
    STEP_TIMES+=("$5 $1")
    PASSED=$((PASSED + $2))
    FAILED=$((FAILED + $3))
    SKIPPED=$((SKIPPED + $4))
    [[ -v GROUP_PASSED[$group] ]] || GROUPS_SEEN+=("$group")
    GROUP_PASSED[$group]=$((${GROUP_PASSED[$group]:-0} + $2))
    GROUP_FAILED[$group]=$((${GROUP_FAILED[$group]:-0} + $3))
    GROUP_SKIPPED[$group]=$((${GROUP_SKIPPED[$group]:-0} + $4))
    [ "$3" -gt 0 ] && FAILED_SUITES+=("$1")
    log "$1: $2 passed, $3 failed$([ "$4" -gt 0 ] && echo ", $4 skipped") ($5 s)"
}

# skip_reasons NAME OUTPUT: each "SKIPPED: reason" line of OUTPUT, kept for the closing lines; prints their number
skip_reasons() {
    local line count=0
    while IFS= read -r line; do
        SKIP_REASONS+=("$1: ${line#SKIPPED: }")
        count=$((count + 1))
    done < <(grep '^SKIPPED:' <<<"$2")
    echo "$count"
}

# count_steps NAME STATUS OUTPUT SECONDS: a script that reports steps (test/major.sh, test/upgrade/run.sh): one test
# per "ok: " line, one failure per "FAILED: " line, one skipped test per "SKIPPED:" line; and one failure when it
# fails without saying which step, passes having reported no step, or skips without saying why.
count_steps() {
    local name=$1 status=$2 out=$3 passed failed skips
    passed=$(grep -c '^ok: ' <<<"$out")
    failed=$(grep -c '^FAILED: ' <<<"$out")
    skips=$(skip_reasons "$name" "$out")
    if [ "$failed" -eq 0 ]; then
        case $status in
            0) [ "$passed" -gt 0 ] || failed=1 ;;
            77) [ "$skips" -gt 0 ] || failed=1 ;;
            *) failed=1 ;;
        esac
    fi
    if [ "$failed" -gt 0 ]; then printf '%s\n' "$out" | tail -n 60 >&2; else grep -E '^(ok|SKIPPED): ' <<<"$out" >&2; fi
    record "$name" "$passed" "$failed" "$skips" "$4"
}

# count_gtest NAME STATUS OUTPUT SECONDS: a Google Test binary, one test per test case.
count_gtest() {
    local name=$1 status=$2 out=$3 passed failed
    passed=$(grep -oP '^\[  PASSED  \] \K[0-9]+' <<<"$out" | tail -n1)
    failed=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= tests?, listed below)' <<<"$out" | tail -n1)
    if [ -z "$passed$failed" ] || { [ "$status" -ne 0 ] && [ -z "$failed" ]; }; then
        printf '%s\n' "$out" | tail -n 40 >&2
        record "$name" "${passed:-0}" 1 0 "$4"
        return
    fi
    [ -n "$failed" ] && printf '%s\n' "$out" | grep -E '^\[  FAILED  \]|Failure' | head -n 40 >&2
    record "$name" "${passed:-0}" "${failed:-0}" 0 "$4"
}

# count_check NAME STATUS OUTPUT SECONDS: a script or command that passes as a whole: one test, plus one skipped test
# per "SKIPPED:" line it prints (exit status 77: skipped as a whole).
count_check() {
    local name=$1 status=$2 out=$3 skips
    skips=$(skip_reasons "$name" "$out")
    if [ "$status" -eq 77 ]; then
        printf '%s\n' "$out" | tail -n 3 >&2
        record "$name" 0 0 "$((skips > 0 ? skips : 1))" "$4"
    elif [ "$status" -eq 0 ]; then
        printf '%s\n' "$out" | tail -n 3 >&2
        record "$name" 1 0 "$skips" "$4"
    else
        printf '%s\n' "$out" | tail -n 40 >&2
        record "$name" 0 1 "$skips" "$4"
    fi
}

# count_regress NAME STATUS OUTPUT SECONDS: `make installcheck`, one test per pg_regress suite.
count_regress() {
    local name=$1 out=$3 passed failed
    printf '%s\n' "$out" | grep -E '\.\.\. |tests' >&2
    passed=$(grep -cE '\.\.\. ok' <<<"$out")
    failed=$(grep -cE '\.\.\. FAILED|\.\.\. failed' <<<"$out")
    [ "$failed" -gt 0 ] && [ -f regression.diffs ] && head -n 80 regression.diffs >&2
    [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ] && failed=1
    record "$name" "$passed" "$failed" 0 "$4"
}

# count_prepare NAME STATUS OUTPUT SECONDS: building what suites need (a peer, the test programs) is no test: a
# failure shows its last lines and fails once; a peer whose source is missing is left to its suites to report.
count_prepare() {
    local name=$1 status=$2 out=$3
    STEP_TIMES+=("$4 $name")
    case $status in
        0) log "$name: done ($4 s)" ;;
        77) log "$name: not possible ($(tail -n 1 <<<"$out")); its suites say so" ;;
        *) printf '%s\n' "$out" | tail -n 40 >&2; record "$name" 0 1 0 0 ;;
    esac
}

# ---- the scheduler: suites side by side
# Most suites wait more than they compute (load phases, sleeps, network round trips, servers starting), so several
# run at once: IDCODEC_JOBS slots (by default one more than the cores); a job that keeps every core busy by itself (a
# compiler run, a CPU-bound push) takes WEIGHT slots. Each suite uses clusters and ports of its own (test/lib/
# cluster.sh: free_port), and what two suites could touch at once (a build directory, an installation
# both install into) is a resource that only one job holds at a time. Jobs start in the order they were declared,
# the longest first, as soon as what they need has ended and their resources and slots are free.
JOBS=${IDCODEC_JOBS:-$(($(nproc) + 1))}
JOB_IDS=()
declare -A JOB_NAME JOB_KIND JOB_WEIGHT JOB_NEEDS JOB_HOLDS JOB_GROUP JOB_CLUSTER JOB_COMMAND JOB_STATE JOB_STARTED

# job ID NAME KIND [--weight N] [--needs "ID ..."] [--holds "RESOURCE ..."] [--group MAJOR] [--cluster] -- COMMAND...
#   KIND: check, steps, gtest, regress or prepare (the count_ function that reads its output)
#   --group: whose counts its tests are (by default the default major's)
#   --cluster: the command runs with a throwaway cluster of the default major of its own (PGHOST, PGPORT, ...)
job() {
    local id=$1
    JOB_IDS+=("$id")
    JOB_NAME[$id]=$2
    JOB_KIND[$id]=$3
    JOB_WEIGHT[$id]=1
    JOB_NEEDS[$id]=""
    JOB_HOLDS[$id]=""
    JOB_GROUP[$id]=""
    JOB_CLUSTER[$id]=0
    JOB_STATE[$id]=waiting
    shift 3
    while [ "$1" != -- ]; do
        case $1 in
            --weight) JOB_WEIGHT[$id]=$2; shift 2 ;;
            --needs) JOB_NEEDS[$id]=$2; shift 2 ;;
            --holds) JOB_HOLDS[$id]=$2; shift 2 ;;
            --group) JOB_GROUP[$id]=$2; shift 2 ;;
            --cluster) JOB_CLUSTER[$id]=1; shift ;;
        esac
    done
    shift
    JOB_COMMAND[$id]=$(printf '%q ' "$@")
}

# job_ready ID HELD: whether what it needs has ended and none of its resources is held (HELD: those held)
job_ready() {
    local id=$1 held=$2 need resource
    for need in ${JOB_NEEDS[$id]}; do [ "${JOB_STATE[$need]}" = done ] || return 1; done
    for resource in ${JOB_HOLDS[$id]}; do [[ " $held " == *" $resource "* ]] && return 1; done
    return 0
}

# job_run ID: the job's command in the background, its output and exit status into JOB_DIR
job_run() {
    local id=$1
    (
        if [ "${JOB_CLUSTER[$id]}" = 1 ]; then
            start_cluster >/dev/null 2>&1 || { echo "the job's throwaway cluster did not start"; exit 1; }
        fi
        eval "${JOB_COMMAND[$id]}"
    ) >"$JOB_DIR/$id.out" 2>&1 </dev/null
    echo $? >"$JOB_DIR/$id.status"
}

# run_jobs: every declared job, until all have ended; each job's result is printed as it ends
run_jobs() {
    local id used held heavy reserved started_one finished
    declare -A running=()
    JOB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/idcodec-jobs.XXXXXX")
    # an interrupted run stops its jobs (whose own traps stop their clusters); background jobs ignore SIGINT
    trap 'trap - INT TERM; kill -TERM 0 2>/dev/null; exit 130' INT TERM
    trap 'rm -rf "$JOB_DIR"' EXIT
    while :; do
        # start what may start, in declaration order
        started_one=1
        while [ $started_one = 1 ]; do
            started_one=0
            used=0; held=""; heavy=0
            for id in "${!running[@]}"; do
                used=$((used + JOB_WEIGHT[${running[$id]}])); held+=" ${JOB_HOLDS[${running[$id]}]}"
                [ "${JOB_WEIGHT[${running[$id]}]}" -gt 1 ] && heavy=1
            done
            reserved=0
            for id in "${JOB_IDS[@]}"; do
                [ "${JOB_STATE[$id]}" = waiting ] && job_ready "$id" "$held" || continue
                if [ $((used + JOB_WEIGHT[$id] + reserved)) -gt "$JOBS" ] && [ "$used" -gt 0 ]; then
                    # The first ready job that does not fit: unless a heavy job is running (whose end frees slots
                    # enough), its slots are kept for it, or lighter jobs taking each slot as it frees would leave
                    # the heavy ones for the end, one after another.
                    [ $heavy = 0 ] && [ $reserved = 0 ] && reserved=${JOB_WEIGHT[$id]}
                    continue
                fi
                JOB_STATE[$id]=running
                JOB_STARTED[$id]=$SECONDS
                job_run "$id" &
                running[$!]=$id
                started_one=1
                break
            done
        done
        [ ${#running[@]} -gt 0 ] || break
        wait -n -p finished "${!running[@]}"
        id=${running[$finished]}
        unset "running[$finished]"
        JOB_STATE[$id]=done
        CURRENT_GROUP=${JOB_GROUP[$id]} "count_${JOB_KIND[$id]}" "${JOB_NAME[$id]}" "$(cat "$JOB_DIR/$id.status" 2>/dev/null || echo 1)" \
            "$(cat "$JOB_DIR/$id.out")" "$((SECONDS - JOB_STARTED[$id]))"
    done
}

run_unit_tests() {
    log "unit tests"
    make -s build/unit_tests PG_CONFIG="$PG_BIN/pg_config" >/dev/null 2>&1 || make build/unit_tests PG_CONFIG="$PG_BIN/pg_config"
    local started=$SECONDS out status
    out=$(build/unit_tests 2>&1)
    status=$?
    count_gtest "unit tests" "$status" "$out" "$((SECONDS - started))"
}

run_regress() {
    log "pg_regress suites"
    local started=$SECONDS out status
    out=$(make -s installcheck PG_CONFIG="$PG_BIN/pg_config" 2>&1)
    status=$?
    count_regress "pg_regress" "$status" "$out" "$((SECONDS - started))"
}

# the closing lines: each major's counts, the failing suites, the skipped ones, the time and where it went
closing_lines() {
    local group
    for group in "${GROUPS_SEEN[@]}"; do
        log "$group: ${GROUP_PASSED[$group]} passed, ${GROUP_FAILED[$group]} failed, ${GROUP_SKIPPED[$group]} skipped"
    done
    if [ ${#FAILED_SUITES[@]} -gt 0 ]; then log "failing suites: ${FAILED_SUITES[*]}"; fi
    for reason in "${SKIP_REASONS[@]}"; do log "skipped: $reason"; done
    log "the test command took $((SECONDS / 60)) min $((SECONDS % 60)) s${JOB_DIR:+ ($JOBS jobs at a time)}; the ten slowest steps:"
    printf '%s\n' "${STEP_TIMES[@]}" | sort -rn | head -n 10 | while read -r seconds name; do
        log "    $((seconds / 60)) min $((seconds % 60)) s  $name"
    done
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
}

install_dependencies
ensure_test_locale
build_and_install
DEFAULT_MAJOR="PostgreSQL $("$PG_BIN/pg_config" --version | sed 's/^PostgreSQL //') (Debian's, the default)"

# The inner loop: what day-to-day work needs to know first, in a few minutes.
if [ $FAST = 1 ]; then
    run_unit_tests
    start_cluster
    run_regress
    SKIP_REASONS+=("every other suite and major: --fast runs the unit tests and the pg_regress suites only")
    record "other suites and majors" 0 0 1 0
    closing_lines
    [ "$FAILED" -eq 0 ]
    exit
fi

# ---- what the peers are: each built once per machine into the cache, before the suites that use them
source test/lib/citus_build.sh
# citus_for RELEASE: Citus built for that stock release and installed into it (the default major's: citus_require)
citus_for() {
    PG_BIN=$(postgres_prefix "$1")/bin citus_require
}
# The newest major's chain (its build with assertions, its Citus, its suites, then the upgrades to it) is the
# longest, so its builds come first; each major's Citus right after its PostgreSQL.
if [ $QUICK = 0 ]; then
    for release in $(printf '%s\n' "${POSTGRES_RELEASES[@]}" | sort -rV); do
        job "pg-$release" "building PostgreSQL $release" prepare --weight 2 -- postgres_build "$release"
        job "citus-$release" "building Citus for PostgreSQL $release" prepare --weight 2 --needs "pg-$release" -- \
            citus_for "$release"
    done
    job "pg-$POSTGRES_UPGRADE_SOURCE" "building PostgreSQL $POSTGRES_UPGRADE_SOURCE" prepare --weight 2 -- \
        postgres_build "$POSTGRES_UPGRADE_SOURCE"
else
    # the install suite's PG_CONFIG form
    job "pg-${POSTGRES_RELEASES[-1]}" "building PostgreSQL ${POSTGRES_RELEASES[-1]}" prepare --weight 2 -- \
        postgres_build "${POSTGRES_RELEASES[-1]}"
fi
job citus-15 "building Citus for the default major" prepare --weight 2 -- citus_require

# The suites' client programs (libpq), which the majors need too.
job drivers "building the suites' client programs" prepare -- make -s -j"$(nproc)" build/chaos_driver \
    build/cluster_driver build/binary_types build/plan_diff PG_CONFIG="$PG_BIN/pg_config"

# ---- the other majors, from their stock sources (their steps run one after another on a cluster of that major),
# and the upgrades across majors after them: the longest chains, so they are declared first
if [ $QUICK = 0 ]; then
    majors=""
    for release in $(printf '%s\n' "${POSTGRES_RELEASES[@]}" | sort -rV); do
        name="PostgreSQL $release"
        [ "$release" = "$POSTGRES_ASSERT_RELEASE" ] && name+=" (assertions)"
        job "major-$release" "$name" steps --group "$name" --needs "citus-$release drivers" --holds "pg-$release" -- \
            bash test/major.sh "$release"
        majors+=" major-$release"
    done
    all_releases=$(printf 'pg-%s ' "${POSTGRES_RELEASES[@]}" "$POSTGRES_UPGRADE_SOURCE")
    job upgrades "major upgrades: pg_upgrade and pg_dump/pg_restore of a database full of idcodec objects" steps \
        --group "major upgrades" --needs "$all_releases $majors" --holds "$all_releases" -- bash test/upgrade/run.sh
    job logical-upgrade "major upgrade by logical replication (15 -> ${POSTGRES_RELEASES[-1]})" steps \
        --group "major upgrades" --needs "major-${POSTGRES_RELEASES[-1]}" --holds "pg-${POSTGRES_RELEASES[-1]}" -- \
        bash test/replication/snowflake_major_upgrade.sh
fi

# The C++ test programs, one compiler run each, side by side.
programs=(build/unit_tests build/unit_tests_asan build/core_bench build/chunker_speed)
for target in test/fuzz/*.cpp; do programs+=("build/fuzz_$(basename "$target" .cpp)"); done
# (with the installation's pg_config, which the extension's objects, linked by the unit tests, were built with:
# another would make them built again, in the checkout, while other jobs read them)
job programs "building the C++ test programs" prepare --weight 2 -- \
    make -s -j"$(nproc)" "${programs[@]}" PG_CONFIG="$PG_BIN/pg_config"

# ---- the default major: every suite
# The sanitized server builds into a copy and an installation of its own; the package builds a .deb.
job asan-server "server under ASan+UBSan" check --weight 2 -- bash test/asan_server.sh
job package "debian package" check --weight 2 --holds system-pg -- bash test/package.sh
# The suites that take longest, then the rest in name order. Each runs on a cluster of its own. What a suite needs
# built first, or holds: the install suite installs into the system's PostgreSQL and into the newest stock major.
declare -A SUITE_OPTIONS=(
    [install]="--needs pg-${POSTGRES_RELEASES[-1]} --holds 'system-pg pg-${POSTGRES_RELEASES[-1]}'"
    [citus]="--needs citus-15" [citus_faults]="--needs 'citus-15 drivers'" [citus_update]="--needs citus-15"
    [chaos]="--needs drivers" [types]="--needs drivers" [planner]="--needs drivers"
    [snowflake_attack]="--weight 2" [snowflake_pressure]="--weight 2"
)
suites=(near_limit snowflake_attack citus install sqlsmith citus_faults chaos planner citus_update dist)
for check in test/integration/*.sh; do
    name=$(basename "$check" .sh)
    [[ " ${suites[*]} " == *" $name "* ]] || suites+=("$name")
done
for name in "${suites[@]}"; do
    eval "job 'suite-$name' '$name' check --cluster ${SUITE_OPTIONS[$name]:-} -- bash test/integration/$name.sh"
done
job regress pg_regress regress --cluster -- make -s installcheck PG_CONFIG="$PG_BIN/pg_config"

# The build rules and the C++ tests.
job locale-free "core locale-free" check -- make -s check-locale-free PG_CONFIG="$PG_BIN/pg_config"
job boundary "core/shim boundary" check -- make -s check-boundary PG_CONFIG="$PG_BIN/pg_config"
job format clang-format check -- make -s check-format
# `make check-scripts` runs this script; called directly, its exit status 77 (skipped) is not turned into make's 2.
job scripts "extension scripts: static check (PostgreSQL's parser)" check -- bash test/security/check_scripts.sh
# `make bench` is not run here (timings are no test), but its programs must keep compiling and its scripts parsing.
job bench-build "benchmark programs build" check --needs programs -- bash -c \
    'make -s build/core_bench build/chunker_speed PG_CONFIG="$PG_BIN/pg_config" && bash -n test/bench/run.sh &&
     bash -n test/bench/peers/run.sh'
job unit "unit tests" gtest --needs programs -- build/unit_tests
job unit-asan "unit tests (asan+ubsan)" gtest --needs programs -- build/unit_tests_asan
FUZZ_SECONDS=${FUZZ_SECONDS:-15}
for target in test/fuzz/*.cpp; do
    name=$(basename "$target" .cpp)
    job "fuzz-$name" "fuzz $name" check --needs programs -- bash -c \
        'bash test/fuzz/run.sh "$1" "$2"; status=$?; tail -n 40 "build/fuzz_$2.log"; exit $status' fuzz "$FUZZ_SECONDS" "$name"
done

if [ $QUICK = 1 ]; then
    for release in "${POSTGRES_RELEASES[@]}"; do
        name="PostgreSQL $release"
        [ "$release" = "$POSTGRES_ASSERT_RELEASE" ] && name+=" (assertions)"
        SKIP_REASONS+=("$name: --quick runs the default major only"); CURRENT_GROUP=$name record "$name" 0 0 1 0
    done
    SKIP_REASONS+=("major upgrades: --quick runs the default major only")
    CURRENT_GROUP="major upgrades" record "major upgrades" 0 0 1 0
fi

log "running ${#JOB_IDS[@]} jobs, $JOBS at a time"
run_jobs
closing_lines
[ "$FAILED" -eq 0 ]
