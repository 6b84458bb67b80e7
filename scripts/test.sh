#!/usr/bin/env bash
# Installs what is missing, builds idcodec and installs it into a temporary PostgreSQL installation (scripts/setup.sh)
# and runs every suite. `make check` runs this.
# Every suite runs on the default major (Debian's PostgreSQL 15), each on throwaway clusters of its own; the suites
# that must hold on every major run on 16, 17 and 18 built from their stock sources (test/major.sh), and databases
# are upgraded across majors (test/upgrade/run.sh). The peers (the stock majors, Citus for each) and the compiled test
# programs are built once per machine into a cache outside the checkout, before the suites that need them.
# Independent suites run side by side (IDCODEC_JOBS at a time, by default one more than the cores), each with a time
# limit; each suite's result is printed as it ends.
#
# Every suite reports in TAP (test/lib/tap.sh): the closing line "N passed, N failed, N skipped" counts TAP tests
# across every suite. A suite that ends without its plan, runs another number of tests than its plan, exits non-zero
# with no failed test, or outlives its time limit counts one more failed test.
#
#   bash scripts/test.sh [--quick | --fast] [--only NAME[,NAME...]] [--list]
#       --quick: every suite on the default major only (the other majors and the upgrades are counted as skipped)
#       --fast:  the inner loop: build, install, the unit tests and the pg_regress suites only
#       --only:  only those jobs (and what they need built first), e.g. --only keyring or --only unit,regress
#       --list:  the jobs' names
# IDCODEC_JOB_LOGS=DIR keeps every job's standard output (its TAP), standard error and exit status in DIR.
QUICK=0
FAST=0
LIST=0
ONLY=""
usage() { echo "usage: bash scripts/test.sh [--quick | --fast] [--only NAME[,NAME...]] [--list]" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --quick) QUICK=1 ;;
        --fast) FAST=1 ;;
        --list) LIST=1 ;;
        --only) [ $# -ge 2 ] || usage; ONLY=${2//,/ }; shift ;;
        --only=*) ONLY=${1#--only=}; ONLY=${ONLY//,/ } ;;
        *) usage ;;
    esac
    shift
done
source "$(dirname "$0")/setup.sh"
source test/lib/postgres_build.sh
source test/lib/tap.sh
set +e

PASSED=0
FAILED=0
SKIPPED=0
FAILED_SUITES=()
SKIP_REASONS=()
STEP_TIMES=()
STEP_CPU=()  # "CPU-nanoseconds name" of each step, when the machine lets the run count them (cpu_cgroup)
CPU_CGROUP=""
GROUPS_SEEN=()
declare -A GROUP_PASSED GROUP_FAILED GROUP_SKIPPED

# record NAME GROUP PASSED FAILED SKIPPED SECONDS: adds a suite's counts to the totals and to its group's (a major)
# and prints its line
record() {
    local name=$1 group=$2
    STEP_TIMES+=("$6 $name")
    PASSED=$((PASSED + $3))
    FAILED=$((FAILED + $4))
    SKIPPED=$((SKIPPED + $5))
    [[ -v GROUP_PASSED[$group] ]] || GROUPS_SEEN+=("$group")
    GROUP_PASSED[$group]=$((${GROUP_PASSED[$group]:-0} + $3))
    GROUP_FAILED[$group]=$((${GROUP_FAILED[$group]:-0} + $4))
    GROUP_SKIPPED[$group]=$((${GROUP_SKIPPED[$group]:-0} + $5))
    [ "$4" -gt 0 ] && FAILED_SUITES+=("$name")
    log "$name: $3 passed, $4 failed$([ "$5" -gt 0 ] && echo ", $5 skipped") ($6 s)"
}

# count_tap NAME GROUP STATUS OUT ERR SECONDS LIMIT: a suite's TAP (OUT, its standard output) read and recorded; when
# it fails, its failed tests and the last lines of its output (ERR: its standard error) are shown
count_tap() {
    local name=$1 group=$2 status=$3 out=$4 err=$5 problem="" reason
    tap_read <"$out"
    local passed=$TAP_READ_PASSED failed=$TAP_READ_FAILED skipped=$TAP_READ_SKIPPED
    for reason in "${TAP_READ_SKIPS[@]}"; do SKIP_REASONS+=("$name: $reason"); done
    if [ -n "$TAP_READ_PLANNED_SKIP" ] && [ $((passed + failed + skipped)) = 0 ]; then
        skipped=1
        SKIP_REASONS+=("$name: $TAP_READ_PLANNED_SKIP")
    elif [ -z "$TAP_READ_PLAN" ]; then
        problem="it printed no plan"
    elif [ "$TAP_READ_PLAN" != $((passed + failed + skipped)) ]; then
        problem="it planned $TAP_READ_PLAN tests and ran $((passed + failed + skipped))"
    fi
    if [ "$status" = 124 ]; then
        problem="it was stopped at its time limit, $7 s${problem:+; $problem}"
    elif [ "$status" != 0 ] && [ "$failed" = 0 ]; then
        problem="it exited with status $status${problem:+; $problem}"
    fi
    if [ -n "$problem" ]; then
        failed=$((failed + 1))
        TAP_READ_FAILURES+=("the suite ran to its end: $problem")
    fi
    if [ "$failed" -gt 0 ]; then
        {
            printf '    not ok: %s\n' "${TAP_READ_FAILURES[@]}" | head -n 40
            echo "    the last lines of its output:"
            grep -vE '^ok ' "$out" | tail -n 40 | sed 's/^/    | /'
            tail -n 40 "$err" | sed 's/^/    | /'
        } >&2
    fi
    record "$name" "$group" "$passed" "$failed" "$skipped" "$6"
}

# count_prepare NAME STATUS ERR SECONDS: building what suites need (a peer, the test programs) is no test: a failure
# shows its last lines and fails once; a peer whose source is missing is left to its suites to report.
count_prepare() {
    local name=$1 status=$2 err=$3
    STEP_TIMES+=("$4 $name")
    case $status in
        0) log "$name: done ($4 s)" ;;
        77) log "$name: not possible ($(tail -n 1 "$err")); its suites say so" ;;
        *) tail -n 40 "$err" | sed 's/^/    | /' >&2; record "$name" "$DEFAULT_MAJOR" 0 1 0 "$4" ;;
    esac
}

# ---- the scheduler: jobs side by side
# Most suites wait more than they compute (load phases, servers starting, network round trips), so several run at
# once: IDCODEC_JOBS slots; a job that keeps every core busy by itself (a compiler run, a CPU-bound push) takes
# WEIGHT slots. Each suite uses clusters and ports of its own, and what two jobs could touch at once (an installation
# both install into) is a resource that only one job holds at a time. Jobs start in the order they were declared, the
# longest first, as soon as what they need has ended and their resources and slots are free. Every job has a time
# limit: one that outlives it is stopped (its process group killed), counted as failed, and the run goes on.
JOBS=${IDCODEC_JOBS:-$(($(nproc) + 1))}
JOB_SECONDS=${IDCODEC_JOB_SECONDS:-1500}
JOB_KEYS=()
declare -A JOB_INDEX JOB_NAME JOB_PREPARE JOB_WEIGHT JOB_NEEDS JOB_HOLDS JOB_GROUP JOB_LIMIT JOB_STATE JOB_STARTED

# job KEY NAME [--prepare] [--weight N] [--needs "KEY ..."] [--holds "RESOURCE ..."] [--group NAME] [--seconds N]
#     -- COMMAND...
#   KEY: what --only names; --prepare: a build, not a test (exit 0 done, 77 not possible, else failed); --group: whose
#   counts its tests are (by default the default major's); --seconds: its time limit (IDCODEC_JOB_SECONDS, 1500)
job() {
    local key=$1 index=${#JOB_KEYS[@]}
    [ -z "${JOB_INDEX[$key]:-}" ] || { echo "scripts/test.sh: job $key declared twice" >&2; exit 2; }
    JOB_KEYS+=("$key")
    JOB_INDEX[$key]=$index
    JOB_NAME[$key]=$2
    JOB_PREPARE[$key]=0
    JOB_WEIGHT[$key]=1
    JOB_NEEDS[$key]=""
    JOB_HOLDS[$key]=""
    JOB_GROUP[$key]=$DEFAULT_MAJOR
    JOB_LIMIT[$key]=$JOB_SECONDS
    JOB_STATE[$key]=waiting
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        case $1 in
            --prepare) JOB_PREPARE[$key]=1; shift ;;
            --weight) JOB_WEIGHT[$key]=$2; shift 2 ;;
            --needs) JOB_NEEDS[$key]=$2; shift 2 ;;
            --holds) JOB_HOLDS[$key]=$2; shift 2 ;;
            --group) JOB_GROUP[$key]=$2; shift 2 ;;
            --seconds) JOB_LIMIT[$key]=$2; shift 2 ;;
            *) echo "scripts/test.sh: job $key: unknown option $1" >&2; exit 2 ;;
        esac
    done
    [ "${1:-}" = -- ] && [ $# -ge 2 ] || { echo "scripts/test.sh: job $key: no command after --" >&2; exit 2; }
    shift
    local -n command=JOB_COMMAND_$index
    command=("$@")
}

# only_selected KEY...: the jobs --only names and what they need, transitively; every other job is dropped
only_selected() {
    declare -A keep=()
    local pending=("$@") key need
    while [ ${#pending[@]} -gt 0 ]; do
        key=${pending[0]}
        pending=("${pending[@]:1}")
        [ -n "${keep[$key]:-}" ] && continue
        [ -n "${JOB_INDEX[$key]:-}" ] || { echo "scripts/test.sh: no job named $key (--list names them)" >&2; exit 2; }
        keep[$key]=1
        for need in ${JOB_NEEDS[$key]}; do pending+=("$need"); done
    done
    local kept=()
    for key in "${JOB_KEYS[@]}"; do [ -n "${keep[$key]:-}" ] && kept+=("$key"); done
    JOB_KEYS=("${kept[@]}")
}

# job_ready KEY HELD: whether what it needs has ended and none of its resources is held (HELD: those held)
job_ready() {
    local key=$1 held=$2 need resource
    for need in ${JOB_NEEDS[$key]}; do [ "${JOB_STATE[$need]}" = done ] || return 1; done
    for resource in ${JOB_HOLDS[$key]}; do [[ " $held " == *" $resource "* ]] && return 1; done
    return 0
}

# cpu_cgroup: a new cgroup for this run, under its own in a cpuacct hierarchy it may write (cgroup v1, as root), where
# each job gets one of its own: the servers a job starts leave its process tree but stay in its cgroup, so their CPU is
# the job's. Only where cpuacct is mounted without the cpu controller, whose groups would change how the jobs share
# the cores. Empty when there is none; the run then says so and goes on.
cpu_cgroup() {
    local mount parent
    mount=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ && $4 !~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
    parent=$(awk -F: '$2 ~ /(^|,)cpuacct(,|$)/ { print $3; exit }' /proc/self/cgroup)
    [ -n "$mount" ] && [ -f "$mount$parent/cpuacct.usage" ] && mktemp -d "$mount${parent%/}/idcodec.XXXXXX" 2>/dev/null
}

# cpu_cgroup_remove: the run's cgroups, once their processes are gone (a server may still be exiting as its job
# ends), within a few seconds
cpu_cgroup_remove() {
    [ -n "$CPU_CGROUP" ] || return 0
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        rmdir "$CPU_CGROUP"/*/ "$CPU_CGROUP" 2>/dev/null
        if [ ! -d "$CPU_CGROUP" ]; then
            CPU_CGROUP=""
            return 0
        fi
        sleep 0.5
    done
    log "the run's cgroup $CPU_CGROUP is left: a process of it still runs"
    CPU_CGROUP=""
}

# job_run KEY: the job's command under its time limit (timeout kills its whole process group), its standard output,
# standard error and exit status into JOB_DIR; in its own cgroup under CPU_CGROUP when there is one
job_run() {
    local key=$1
    local -n command=JOB_COMMAND_${JOB_INDEX[$key]}
    if [ -n "$CPU_CGROUP" ]; then
        # (a job that could not move in is not counted: job_end finds no cgroup)
        if mkdir "$CPU_CGROUP/$key" 2>/dev/null; then
            echo "$BASHPID" 2>/dev/null >"$CPU_CGROUP/$key/cgroup.procs" || rmdir "$CPU_CGROUP/$key"
        fi
    fi
    timeout --kill-after=60 "${JOB_LIMIT[$key]}" "${command[@]}" >"$JOB_DIR/$key.out" 2>"$JOB_DIR/$key.err" </dev/null
    echo $? >"$JOB_DIR/$key.status"
}

# job_end KEY: a job that ended, read and recorded
job_end() {
    local key=$1 status seconds
    status=$(cat "$JOB_DIR/$key.status" 2>/dev/null || echo 1)
    seconds=$((SECONDS - JOB_STARTED[$key]))
    if [ -n "$CPU_CGROUP" ] && [ -r "$CPU_CGROUP/$key/cpuacct.usage" ]; then
        STEP_CPU+=("$(cat "$CPU_CGROUP/$key/cpuacct.usage") ${JOB_NAME[$key]}")
    fi
    if [ "${JOB_PREPARE[$key]}" = 1 ]; then
        [ "$status" = 124 ] && echo "stopped at its time limit, ${JOB_LIMIT[$key]} s" >>"$JOB_DIR/$key.err"
        count_prepare "${JOB_NAME[$key]}" "$status" "$JOB_DIR/$key.err" "$seconds"
    else
        count_tap "${JOB_NAME[$key]}" "${JOB_GROUP[$key]}" "$status" "$JOB_DIR/$key.out" "$JOB_DIR/$key.err" \
            "$seconds" "${JOB_LIMIT[$key]}"
    fi
}

# run_jobs: every declared job, until all have ended; each job's result is printed as it ends
run_jobs() {
    local key pid used held heavy reserved started_one finished
    declare -A running=()
    # each job's output, kept after the run in IDCODEC_JOB_LOGS when that names a directory
    if [ -n "${IDCODEC_JOB_LOGS:-}" ]; then
        JOB_DIR=$IDCODEC_JOB_LOGS
        mkdir -p "$JOB_DIR"
    else
        JOB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/idcodec-jobs.XXXXXX")
        JOB_DIR_MADE=1
    fi
    CPU_CGROUP=$(cpu_cgroup)
    # (closing_lines removes the cgroups before its last line; this is for a run that ends otherwise)
    trap 'cpu_cgroup_remove; [ "${JOB_DIR_MADE:-0}" = 0 ] || rm -rf "$JOB_DIR"' EXIT
    # an interrupted run stops its jobs (whose own traps stop their clusters)
    trap 'trap - INT TERM; kill -TERM 0 2>/dev/null; exit 130' INT TERM
    while :; do
        # start what may start, in declaration order
        started_one=1
        while [ $started_one = 1 ]; do
            started_one=0
            used=0; held=""; heavy=0
            for pid in "${!running[@]}"; do
                key=${running[$pid]}
                used=$((used + JOB_WEIGHT[$key])); held+=" ${JOB_HOLDS[$key]}"
                [ "${JOB_WEIGHT[$key]}" -gt 1 ] && heavy=1
            done
            reserved=0
            for key in "${JOB_KEYS[@]}"; do
                [ "${JOB_STATE[$key]}" = waiting ] && job_ready "$key" "$held" || continue
                if [ $((used + JOB_WEIGHT[$key] + reserved)) -gt "$JOBS" ] && [ "$used" -gt 0 ]; then
                    # The first ready job that does not fit: unless a heavy job is running (whose end frees slots
                    # enough), its slots are kept for it, or lighter jobs taking each slot as it frees would leave
                    # the heavy ones for the end, one after another.
                    [ $heavy = 0 ] && [ $reserved = 0 ] && reserved=${JOB_WEIGHT[$key]}
                    continue
                fi
                JOB_STATE[$key]=running
                JOB_STARTED[$key]=$SECONDS
                job_run "$key" &
                running[$!]=$key
                started_one=1
                break
            done
        done
        [ ${#running[@]} -gt 0 ] || break
        wait -n -p finished "${!running[@]}"
        key=${running[$finished]}
        unset "running[$finished]"
        JOB_STATE[$key]=done
        job_end "$key"
    done
}

# log_ten_largest UNIT_PER_SECOND ENTRIES...: the ten entries ("amount name") with the largest amounts, as minutes and
# seconds
log_ten_largest() {
    local per_second=$1 amount name
    shift
    printf '%s\n' "$@" | sort -rn | head -n 10 | while read -r amount name; do
        log "    $((amount / per_second / 60)) min $((amount / per_second % 60)) s  $name"
    done
}

# the closing lines: each group's counts, the failing suites, the skipped ones, the time and where it went
closing_lines() {
    local group reason
    for group in "${GROUPS_SEEN[@]}"; do
        log "$group: ${GROUP_PASSED[$group]} passed, ${GROUP_FAILED[$group]} failed, ${GROUP_SKIPPED[$group]} skipped"
    done
    if [ ${#FAILED_SUITES[@]} -gt 0 ]; then log "failing suites: ${FAILED_SUITES[*]}"; fi
    for reason in "${SKIP_REASONS[@]}"; do log "skipped: $reason"; done
    log "the test command took $((SECONDS / 60)) min $((SECONDS % 60)) s ($JOBS jobs at a time); the ten slowest steps:"
    log_ten_largest 1 "${STEP_TIMES[@]}"
    if [ ${#STEP_CPU[@]} -gt 0 ]; then
        local nanoseconds=0 entry total share
        for entry in "${STEP_CPU[@]}"; do nanoseconds=$((nanoseconds + ${entry%% *})); done
        total=$((nanoseconds / 1000000000))
        share=$((SECONDS > 0 ? 100 * total / (SECONDS * $(nproc)) : 0))
        log "the steps used $((total / 60)) min $((total % 60)) s of CPU, $share% of the $(nproc) cores' time; the ten" \
            "that used the most (their servers included):"
        log_ten_largest 1000000000 "${STEP_CPU[@]}"
    else
        log "the steps' CPU was not counted (no cpuacct cgroup the run may write)"
    fi
    cpu_cgroup_remove
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
}

DEFAULT_MAJOR="PostgreSQL $PG_MAJOR (Debian's, the default)"
if [ $LIST = 0 ]; then
    install_dependencies
    ensure_test_locale
    build_and_install
    DEFAULT_MAJOR="PostgreSQL $("$PG_BIN/pg_config" --version | sed 's/^PostgreSQL //') (Debian's, the default)"
fi
# the suites see that idcodec is built and installed, and do not do it again
export IDCODEC_PREPARED=1

# ---- the inner loop: what day-to-day work needs to know first, in a few minutes
if [ $FAST = 1 ]; then
    job unit-build "building the unit tests" --prepare -- make -s -j"$(nproc)" build/unit_tests PG_CONFIG="$PG_BIN/pg_config"
    job unit "unit tests" --needs unit-build -- build/unit_tests
    job regress pg_regress -- bash test/regress/run.sh
    [ $LIST = 1 ] && { printf '%s\n' "${JOB_KEYS[@]}"; exit 0; }
    [ -z "$ONLY" ] || only_selected $ONLY
    run_jobs
    SKIP_REASONS+=("every other suite and major: --fast runs the unit tests and the pg_regress suites only")
    record "other suites and majors" "$DEFAULT_MAJOR" 0 0 1 0
    closing_lines
    [ "$FAILED" -eq 0 ]
    exit
fi

# ---- what the peers are: each built once per machine into the cache, before the suites that use them
# The newest major's chain (its build with assertions, its Citus, its suites, then the upgrades to it) is the
# longest, so its builds come first; each major's Citus right after its PostgreSQL.
newest=${POSTGRES_RELEASES[-1]}
if [ $QUICK = 0 ]; then
    for release in $(printf '%s\n' "${POSTGRES_RELEASES[@]}" | sort -rV); do
        job "pg-$release" "building PostgreSQL $release" --prepare --weight 2 --seconds 3600 -- \
            bash test/prepare.sh postgres "$release"
        job "citus-$release" "building Citus for PostgreSQL $release" --prepare --weight 2 --seconds 3600 \
            --needs "pg-$release" -- bash test/prepare.sh citus "$release"
    done
    job "pg-$POSTGRES_UPGRADE_SOURCE" "building PostgreSQL $POSTGRES_UPGRADE_SOURCE" --prepare --weight 2 \
        --seconds 3600 -- bash test/prepare.sh postgres "$POSTGRES_UPGRADE_SOURCE"
else
    # the install suite's PG_CONFIG form
    job "pg-$newest" "building PostgreSQL $newest" --prepare --weight 2 --seconds 3600 -- \
        bash test/prepare.sh postgres "$newest"
fi
job citus-15 "building Citus for the default major" --prepare --weight 2 --seconds 3600 -- bash test/prepare.sh citus
# The suites' client programs (libpq), which the majors need too.
job drivers "building the suites' client programs" --prepare -- bash test/prepare.sh drivers

# ---- the other majors, from their stock sources (their suites run one after another on a cluster of that major),
# and the upgrades across majors beside them (idcodec is built for a major in one copy of the sources, under a lock:
# test/lib/postgres_build.sh): the longest chains, so they are declared first
if [ $QUICK = 0 ]; then
    for release in $(printf '%s\n' "${POSTGRES_RELEASES[@]}" | sort -rV); do
        name="PostgreSQL $release"
        [ "$release" = "$POSTGRES_ASSERT_RELEASE" ] && name+=" (assertions)"
        job "major-$release" "$name" --group "$name" --seconds 3600 --needs "citus-$release drivers" -- \
            bash test/major.sh "$release"
    done
    all_releases=$(printf 'pg-%s ' "${POSTGRES_RELEASES[@]}" "$POSTGRES_UPGRADE_SOURCE")
    job upgrades "major upgrades: pg_upgrade and pg_dump/pg_restore of a database full of idcodec objects" \
        --group "major upgrades" --seconds 3600 --needs "$all_releases" -- bash test/upgrade/run.sh
    # (the newest major's TAP framework runs it, the default major's installation is the source)
    job logical-upgrade "major upgrade by logical replication (15 -> $newest)" --group "major upgrades" \
        --needs "major-$newest" -- env PG_BIN="$(postgres_prefix "$newest")/bin" IDCODEC_UPGRADE_FROM_BIN="$PG_BIN" \
        bash test/t/run.sh test/t/snowflake_major_upgrade.pl
fi

# The C++ test programs, one compiler run each, side by side (or from the cache).
job programs "building the C++ test programs" --prepare --weight 2 --seconds 3600 -- bash test/prepare.sh programs

# ---- the default major: every suite
# The sanitized server builds into a copy and an installation of its own; the package builds a .deb.
job asan-server "server under ASan+UBSan" --weight 2 -- bash test/sanitizer/server.sh
job package "debian package" --weight 2 --holds system-pg -- bash test/package.sh

# suite_job NAME [OPTION ...] -- COMMAND...: a suite of the default major, named after its file
suite_job() {
    local name=$1
    shift
    job "$name" "$name" "$@"
}
# suite_options NAME: what a suite needs built first, holds or weighs (into the array OPTIONS)
suite_options() {
    OPTIONS=()
    case $1 in
        install) OPTIONS=(--needs "pg-$newest" --holds "system-pg pg-$newest") ;;
        citus | citus_update) OPTIONS=(--needs citus-15) ;;
        citus_faults) OPTIONS=(--needs "citus-15 drivers") ;;
        chaos | types | planner) OPTIONS=(--needs drivers) ;;
        snowflake_attack | snowflake_pressure) OPTIONS=(--weight 2) ;;
    esac
}
# The suites that take longest first, then the rest in name order. Each runs on clusters of its own.
suites=(near_limit snowflake_attack citus install sqlsmith citus_faults chaos planner citus_update dist)
# (not here: the logical replication mesh, which needs 16 or later, and the upgrade from 15, jobs of the majors above)
for file in test/integration/*.sh test/t/*.pl; do
    name=$(basename "${file%.*}")
    [[ " ${suites[*]} snowflake_mesh snowflake_major_upgrade " == *" $name "* ]] || suites+=("$name")
done
for name in "${suites[@]}"; do
    suite_options "$name"
    if [ -f "test/t/$name.pl" ]; then
        suite_job "$name" "${OPTIONS[@]}" -- bash test/t/run.sh "test/t/$name.pl"
    elif [ -f "test/integration/$name.sh" ]; then
        suite_job "$name" "${OPTIONS[@]}" -- bash "test/integration/$name.sh"
    fi
done
job regress pg_regress -- bash test/regress/run.sh

# The build rules and the C++ tests.
job build-rules "build rules: core locale-free, core/shim boundary, clang-format, benchmark programs" \
    --needs programs -- bash test/build_rules.sh
job scripts "extension scripts: static check (PostgreSQL's parser)" -- bash test/security/check_scripts.sh
job unit "unit tests" --needs programs -- build/unit_tests
job unit-asan "unit tests (asan+ubsan)" --needs programs -- build/unit_tests_asan
FUZZ_SECONDS=${FUZZ_SECONDS:-15}
for target in test/fuzz/*.cpp; do
    name=$(basename "$target" .cpp)
    job "fuzz-$name" "fuzz $name" --needs programs -- bash test/fuzz/run.sh "$FUZZ_SECONDS" "$name"
done

for key in "${JOB_KEYS[@]}"; do
    for need in ${JOB_NEEDS[$key]}; do
        [ -n "${JOB_INDEX[$need]:-}" ] || { echo "scripts/test.sh: job $key needs $need, which is no job" >&2; exit 2; }
    done
done
if [ $LIST = 1 ]; then
    for key in "${JOB_KEYS[@]}"; do printf '%-28s %s\n' "$key" "${JOB_NAME[$key]}"; done
    exit 0
fi
[ -z "$ONLY" ] || only_selected $ONLY
if [ $QUICK = 1 ] && [ -z "$ONLY" ]; then
    for release in "${POSTGRES_RELEASES[@]}"; do
        name="PostgreSQL $release"
        [ "$release" = "$POSTGRES_ASSERT_RELEASE" ] && name+=" (assertions)"
        SKIP_REASONS+=("$name: --quick runs the default major only")
        record "$name" "$name" 0 0 1 0
    done
    SKIP_REASONS+=("major upgrades: --quick runs the default major only")
    record "major upgrades" "major upgrades" 0 0 1 0
fi

log "running ${#JOB_KEYS[@]} jobs, $JOBS at a time"
run_jobs
closing_lines
[ "$FAILED" -eq 0 ]
