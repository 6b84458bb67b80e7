# TAP (the Test Anything Protocol), sourced: how every suite reports, and the one reader of it that the test command
# (scripts/test.sh) and suites that run other suites (test/major.sh) share. prove reads the same output.
#
#   check DESCRIPTION ACTUAL EXPECTED   "ok N - DESCRIPTION" when the two are equal, else "not ok N - ..." with the
#                                       first lines of both as diagnostics
#   expect WORDS... ACTUAL EXPECTED     check, the description given in as many words as the lines need
#   tap_ok DESCRIPTION                  a test that passed
#   tap_not_ok DESCRIPTION [DETAIL]     a test that failed; DETAIL's lines become diagnostics ("# ...")
#   tap_run DESCRIPTION COMMAND...      a test that passes when COMMAND exits 0; its last lines are shown otherwise
#   tap_skip REASON [COUNT]             COUNT (1) tests that could not run: "ok N # SKIP REASON"
#   tap_skip_all REASON                 the whole suite cannot run: "1..0 # SKIP REASON", and exits 0
#   tap_diag TEXT                       TEXT's lines as diagnostics
#   tap_done                            the plan ("1..N"), and the exit status: 0 when no test failed. A suite that
#                                       ends without it (an error under set -e) has no plan, which fails it.
#   tap_include PREFIX COMMAND...       runs COMMAND, another suite, and reports its tests as this suite's (their
#                                       descriptions prefixed "PREFIX: "), with one more failed test when it ends
#                                       without its plan, ran a number of tests other than its plan, or exited
#                                       non-zero with no failed test; TAP_INCLUDE_SECONDS limits its time
#   tap_read                            reads TAP on stdin, for a caller that counts: sets TAP_READ_PASSED,
#                                       TAP_READ_FAILED, TAP_READ_SKIPPED, TAP_READ_PLAN (empty when none),
#                                       TAP_READ_PLANNED_SKIP (the reason of a "1..0 # SKIP") and the arrays
#                                       TAP_READ_FAILURES and TAP_READ_SKIPS (descriptions, reasons)
TAP_COUNT=0
TAP_FAILED=0

# tap_line TEXT: TEXT on one line, with '#' escaped as TAP requires in a description
tap_line() {
    local text=${1//$'\n'/ }
    printf '%s' "${text//#/\\#}"
}

tap_diag() {
    [ -n "$*" ] || return 0
    printf '%s\n' "$*" | sed 's/^/# /'
}

tap_ok() {
    TAP_COUNT=$((TAP_COUNT + 1))
    printf 'ok %d - %s\n' "$TAP_COUNT" "$(tap_line "$1")"
}

tap_not_ok() {
    TAP_COUNT=$((TAP_COUNT + 1))
    TAP_FAILED=$((TAP_FAILED + 1))
    printf 'not ok %d - %s\n' "$TAP_COUNT" "$(tap_line "$1")"
    tap_diag "${2:-}"
}

check() {
    if [ "$2" = "$3" ]; then
        tap_ok "$1"
    else
        tap_not_ok "$1" "$(printf 'got:      %s\n' "$2" | head -n 5; printf 'expected: %s\n' "$3" | head -n 5)"
    fi
}

expect() { check "${*:1:$#-2}" "${@:$#-1:1}" "${@:$#}"; }

tap_run() {
    local description=$1 out
    shift
    if out=$("$@" 2>&1); then
        tap_ok "$description"
    else
        tap_not_ok "$description" "$(tail -n 40 <<<"$out")"
    fi
}

tap_skip() {
    local i
    for ((i = 0; i < ${2:-1}; i++)); do
        TAP_COUNT=$((TAP_COUNT + 1))
        printf 'ok %d # SKIP %s\n' "$TAP_COUNT" "$(tap_line "$1")"
    done
}

tap_skip_all() {
    printf '1..0 # SKIP %s\n' "$(tap_line "$1")"
    exit 0
}

tap_done() {
    if [ "$TAP_COUNT" = 0 ]; then tap_not_ok "the suite ran at least one test"; fi
    printf '1..%d\n' "$TAP_COUNT"
    [ "$TAP_FAILED" = 0 ]
}

# tap_parse_line LINE: what a line of TAP is: sets TAP_KIND (ok, not_ok, skip, plan, skip_all or other) and
# TAP_TEXT (the description, the skip's reason or the plan's count)
tap_parse_line() {
    local line=$1
    TAP_TEXT=""
    if [[ $line =~ ^1\.\.0[[:space:]]*#[[:space:]]*[Ss][Kk][Ii][Pp][^[:space:]]*[[:space:]]*(.*)$ ]]; then
        TAP_KIND=skip_all TAP_TEXT=${BASH_REMATCH[1]}
    elif [[ $line =~ ^1\.\.([0-9]+) ]]; then
        TAP_KIND=plan TAP_TEXT=${BASH_REMATCH[1]}
    elif [[ $line =~ ^ok([[:space:]]+[0-9]+)?([[:space:]]*-)?[[:space:]]*(.*)$ ]]; then
        TAP_TEXT=${BASH_REMATCH[3]}
        if [[ $TAP_TEXT =~ (^|[^\\])#[[:space:]]*[Ss][Kk][Ii][Pp][^[:space:]]*[[:space:]]*(.*)$ ]]; then
            TAP_KIND=skip TAP_TEXT=${BASH_REMATCH[2]}
        else
            TAP_KIND=ok
        fi
    elif [[ $line =~ ^not\ ok([[:space:]]+[0-9]+)?([[:space:]]*-)?[[:space:]]*(.*)$ ]]; then
        TAP_KIND=not_ok TAP_TEXT=${BASH_REMATCH[3]}
        # a test marked TODO is expected to fail and is not counted as a failure
        if [[ $TAP_TEXT =~ (^|[^\\])#[[:space:]]*[Tt][Oo][Dd][Oo] ]]; then TAP_KIND=ok; fi
    else
        TAP_KIND=other TAP_TEXT=$line
    fi
}

tap_read() {
    local line tests=0
    TAP_READ_PASSED=0 TAP_READ_FAILED=0 TAP_READ_SKIPPED=0 TAP_READ_PLAN="" TAP_READ_PLANNED_SKIP=""
    TAP_READ_FAILURES=() TAP_READ_SKIPS=()
    while IFS= read -r line; do
        tap_parse_line "$line"
        case $TAP_KIND in
            ok) TAP_READ_PASSED=$((TAP_READ_PASSED + 1)) ;;
            not_ok) TAP_READ_FAILED=$((TAP_READ_FAILED + 1)); TAP_READ_FAILURES+=("$TAP_TEXT") ;;
            skip) TAP_READ_SKIPPED=$((TAP_READ_SKIPPED + 1)); TAP_READ_SKIPS+=("$TAP_TEXT") ;;
            plan) TAP_READ_PLAN=$TAP_TEXT ;;
            skip_all) TAP_READ_PLAN=0 TAP_READ_PLANNED_SKIP=${TAP_TEXT:-no reason given} ;;
        esac
    done
}

tap_include() {
    local prefix=$1 line status plan="" planned_skip="" ran=0 failed=0 out started=$SECONDS
    shift
    out=$(mktemp)
    # (its failure is reported below, never ends a caller running under set -e)
    status=0
    timeout --foreground "${TAP_INCLUDE_SECONDS:-3600}" "$@" >"$out" 2>&1 || status=$?
    while IFS= read -r line; do
        tap_parse_line "$line"
        case $TAP_KIND in
            ok) ran=$((ran + 1)); tap_ok "$prefix: $TAP_TEXT" ;;
            not_ok) ran=$((ran + 1)); failed=$((failed + 1)); tap_not_ok "$prefix: $TAP_TEXT" ;;
            skip) ran=$((ran + 1)); tap_skip "$prefix: $TAP_TEXT" ;;
            plan) plan=$TAP_TEXT ;;
            skip_all) plan=0 planned_skip=${TAP_TEXT:-no reason given} ;;
            other) [[ $line =~ ^# ]] && printf '    %s\n' "$line" ;;
        esac
    done <"$out"
    if [ -n "$planned_skip" ] && [ $ran = 0 ] && [ $status = 0 ]; then
        tap_skip "$prefix: $planned_skip"
    elif [ -z "$plan" ] || [ "$plan" != $ran ] || { [ $status != 0 ] && [ $failed = 0 ]; }; then
        tap_not_ok "$prefix: ran to its end (plan ${plan:-missing}, $ran tests, exit status $status$(
            [ $status = 124 ] && echo ": stopped after ${TAP_INCLUDE_SECONDS:-3600} s"))" "$(tail -n 40 "$out")"
    fi
    printf '    # %s took %d s\n' "$prefix" $((SECONDS - started))
    rm -f "$out"
}
