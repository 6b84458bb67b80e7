#!/usr/bin/env bash
# Installs what is missing, builds idcodec and installs it into a temporary PostgreSQL installation (scripts/setup.sh),
# starts a throwaway cluster and runs every suite. `make check` runs this.
# Ends with one line "N passed, N failed, N skipped" (tests across all suites), after one line per PostgreSQL major.
# Every suite runs on the default major (Debian's PostgreSQL 15); then the suites that must hold on every major run
# on 16, 17 and 18 built from their stock sources (test/major.sh), and databases are upgraded across majors
# (test/upgrade/run.sh).
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

# record SUITE PASSED FAILED [SKIPPED]; the time since the previous record is the suite's (kept in STEP_TIMES as
# "SECONDS NAME" for the closing lines)
SECONDS=0
LAST_RECORD=0
STEP_TIMES=()
record() {
    local skipped=${4:-0}
    STEP_TIMES+=("$((SECONDS - LAST_RECORD)) $1")
    PASSED=$((PASSED + $2))
    FAILED=$((FAILED + $3))
    SKIPPED=$((SKIPPED + skipped))
    [ "$3" -gt 0 ] && FAILED_SUITES+=("$1")
    log "$1: $2 passed, $3 failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped") ($((SECONDS - LAST_RECORD)) s)"
    LAST_RECORD=$SECONDS
}

# A script that reports steps (test/major.sh, test/upgrade/run.sh): one test per "ok: " line, one failure per
# "FAILED: " line, one skipped test per "SKIPPED:" line; and one failure when it fails without saying which step,
# passes having reported no step, or skips without saying why.
run_steps() {
    local name=$1; shift
    local out status passed failed skips
    out=$("$@" 2>&1)
    status=$?
    passed=$(grep -c '^ok: ' <<<"$out")
    failed=$(grep -c '^FAILED: ' <<<"$out")
    skips=$(grep -c '^SKIPPED:' <<<"$out")
    while IFS= read -r line; do SKIP_REASONS+=("$name: ${line#SKIPPED: }"); done < <(grep '^SKIPPED:' <<<"$out")
    if [ "$failed" -eq 0 ]; then
        case $status in
            0) [ "$passed" -gt 0 ] || failed=1 ;;
            77) [ "$skips" -gt 0 ] || failed=1 ;;
            *) failed=1 ;;
        esac
    fi
    if [ "$failed" -gt 0 ]; then printf '%s\n' "$out" | tail -n 60 >&2; else grep -E '^(ok|SKIPPED): ' <<<"$out" >&2; fi
    record "$name" "$passed" "$failed" "$skips"
}

# Google Test binaries: count test cases.
run_gtest() {
    local name=$1; shift
    local out
    out=$("$@" 2>&1)
    local status=$?
    local passed failed
    passed=$(grep -oP '^\[  PASSED  \] \K[0-9]+' <<<"$out" | tail -n1)
    failed=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= tests?, listed below)' <<<"$out" | tail -n1)
    if [ -z "$passed$failed" ] || { [ $status -ne 0 ] && [ -z "$failed" ]; }; then
        printf '%s\n' "$out" | tail -n 40 >&2
        record "$name" "${passed:-0}" 1
        return
    fi
    [ -n "$failed" ] && printf '%s\n' "$out" | grep -E '^\[  FAILED  \]|Failure' | head -n 40 >&2
    record "$name" "${passed:-0}" "${failed:-0}"
}

# A script or command that passes as a whole: one test, plus one skipped test per "SKIPPED:" line it prints.
run_check() {
    local name=$1; shift
    local out status skips
    out=$("$@" 2>&1)
    status=$?
    skips=$(grep -c '^SKIPPED:' <<<"$out")
    while IFS= read -r line; do SKIP_REASONS+=("$name: ${line#SKIPPED: }"); done < <(grep '^SKIPPED:' <<<"$out")
    if [ $status -eq 77 ]; then
        printf '%s\n' "$out" | tail -n 3 >&2
        record "$name" 0 0 "$((skips > 0 ? skips : 1))"
    elif [ $status -eq 0 ]; then
        printf '%s\n' "$out" | tail -n 3 >&2
        record "$name" 1 0 "$skips"
    else
        printf '%s\n' "$out" | tail -n 40 >&2
        record "$name" 0 1 "$skips"
    fi
}

# The pg_regress suites on the running cluster: one test per suite.
run_regress() {
    log "pg_regress suites"
    local out regress_passed regress_failed
    out=$(make -s installcheck PG_CONFIG=$PG_BIN/pg_config 2>&1)
    printf '%s\n' "$out" | grep -E '\.\.\. |tests' >&2
    regress_passed=$(grep -cE '\.\.\. ok' <<<"$out")
    regress_failed=$(grep -cE '\.\.\. FAILED|\.\.\. failed' <<<"$out")
    [ "$regress_failed" -gt 0 ] && [ -f regression.diffs ] && head -n 80 regression.diffs >&2
    [ "$regress_passed" -eq 0 ] && [ "$regress_failed" -eq 0 ] && regress_failed=1
    record "pg_regress" "$regress_passed" "$regress_failed"
}

run_unit_tests() {
    log "unit tests"
    make -s build/unit_tests >/dev/null 2>&1 || make build/unit_tests
    run_gtest "unit tests" build/unit_tests
}

# the closing lines: each major's counts, the failing suites, the skipped ones, the time and where it went
closing_lines() {
    for line in "${MAJOR_LINES[@]}"; do log "$line"; done
    if [ ${#FAILED_SUITES[@]} -gt 0 ]; then log "failing suites: ${FAILED_SUITES[*]}"; fi
    for reason in "${SKIP_REASONS[@]}"; do log "skipped: $reason"; done
    log "the test command took $((SECONDS / 60)) min $((SECONDS % 60)) s; the five slowest steps:"
    printf '%s\n' "${STEP_TIMES[@]}" | sort -rn | head -n 5 | while read -r seconds name; do
        log "    $((seconds / 60)) min $((seconds % 60)) s  $name"
    done
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
}

install_dependencies
ensure_test_locale
build_and_install

# The inner loop: what day-to-day work needs to know first, in a few minutes.
if [ $FAST = 1 ]; then
    run_unit_tests
    start_cluster
    run_regress
    MAJOR_LINES=("PostgreSQL $("$PG_BIN/pg_config" --version | sed 's/^PostgreSQL //') (Debian's, the default: unit tests and pg_regress): $PASSED passed, $FAILED failed")
    SKIP_REASONS+=("every other suite and major: --fast runs the unit tests and the pg_regress suites only")
    record "other suites and majors" 0 0 1
    closing_lines
    [ "$FAILED" -eq 0 ]
    exit
fi

# The C++ test programs are independent of each other and each is one compiler run: build them side by side first
# (a failure shows again where each is used).
log "building the C++ test programs, $(nproc) at a time"
LAST_RECORD=$SECONDS
make -s -j"$(nproc)" build/unit_tests build/unit_tests_asan build/core_bench build/chunker_speed \
    $(for target in test/fuzz/*.cpp; do echo "build/fuzz_$(basename "$target" .cpp)"; done) >/dev/null 2>&1
log "built in $((SECONDS - LAST_RECORD)) s"
STEP_TIMES+=("$((SECONDS - LAST_RECORD)) building the C++ test programs")
LAST_RECORD=$SECONDS

log "build rules: the core is locale-free, the core/shim boundary holds, the code is formatted, the scripts are safe, the benchmarks build"
run_check "core locale-free" make -s check-locale-free PG_CONFIG=$PG_BIN/pg_config
run_check "core/shim boundary" make -s check-boundary PG_CONFIG=$PG_BIN/pg_config
run_check "clang-format" make -s check-format
# `make check-scripts` runs this script; called directly, its exit status 77 (skipped) is not turned into make's 2.
run_check "extension scripts: static check (PostgreSQL's parser)" bash test/security/check_scripts.sh
# `make bench` is not run here (timings are no test), but its programs must keep compiling and its scripts parsing.
run_check "benchmark programs build" bash -c \
    'make -s build/core_bench build/chunker_speed && bash -n test/bench/run.sh && bash -n test/bench/peers/run.sh'

run_unit_tests

log "unit tests under AddressSanitizer and UBSan"
make -s build/unit_tests_asan >/dev/null 2>&1 || make build/unit_tests_asan
run_gtest "unit tests (asan+ubsan)" build/unit_tests_asan

FUZZ_SECONDS=${FUZZ_SECONDS:-15}
fuzz_targets=()
for target in test/fuzz/*.cpp; do fuzz_targets+=("$(basename "$target" .cpp)"); done
log "fuzz targets (${FUZZ_SECONDS}s each, $(nproc) at a time)"
bash test/fuzz/run.sh "$FUZZ_SECONDS" "${fuzz_targets[@]}"
for name in "${fuzz_targets[@]}"; do
    run_check "fuzz $name" bash -c 'tail -n 40 "build/fuzz_$1.log"; exit "$(cat "build/fuzz_$1.status" 2>/dev/null || echo 1)"' \
        fuzz "$name"
done

start_cluster

run_regress

for check in test/integration/*.sh; do
    [ -e "$check" ] || continue
    run_check "$(basename "$check" .sh)" bash "$check"
done

# The sanitized build replaces the installed library, so it comes last and the normal build is installed again.
log "the extension under AddressSanitizer and UBSan inside a server"
run_check "server under ASan+UBSan" bash test/asan_server.sh
build_and_install

# The package installs into the system's PostgreSQL (and removes itself again), tested on a cluster of its own.
log "Debian package"
run_check "debian package" bash test/package.sh

MAJOR_LINES=("PostgreSQL $("$PG_BIN/pg_config" --version | sed 's/^PostgreSQL //') (Debian's, the default: every suite): $PASSED passed, $FAILED failed, $SKIPPED skipped")

# The other majors, from their stock sources, each built once into the cache outside the checkout.
for release in "${POSTGRES_RELEASES[@]}"; do
    name="PostgreSQL $release"
    [ "$release" = "$POSTGRES_ASSERT_RELEASE" ] && name+=" (assertions)"
    if [ $QUICK = 1 ]; then
        SKIP_REASONS+=("$name: --quick runs the default major only"); record "$name" 0 0 1
    else
        log "$name, built from its stock source"
        before=("$PASSED" "$FAILED" "$SKIPPED")
        run_steps "$name" bash test/major.sh "$release"
        MAJOR_LINES+=("$name: $((PASSED - before[0])) passed, $((FAILED - before[1])) failed, $((SKIPPED - before[2])) skipped")
    fi
done
if [ $QUICK = 1 ]; then
    SKIP_REASONS+=("major upgrades: --quick runs the default major only"); record "major upgrades" 0 0 1
else
    log "major upgrades: pg_upgrade and pg_dump/pg_restore of a database full of idcodec objects, and logical replication from 15 to ${POSTGRES_RELEASES[-1]}"
    before=("$PASSED" "$FAILED" "$SKIPPED")
    run_steps "major upgrades" bash test/upgrade/run.sh
    run_steps "major upgrade by logical replication (15 -> ${POSTGRES_RELEASES[-1]})" \
        bash test/replication/snowflake_major_upgrade.sh
    MAJOR_LINES+=("major upgrades: $((PASSED - before[0])) passed, $((FAILED - before[1])) failed, $((SKIPPED - before[2])) skipped")
fi

closing_lines
[ "$FAILED" -eq 0 ]
