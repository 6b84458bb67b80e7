#!/usr/bin/env bash
# Runs libFuzzer targets, as many at a time as there are cores, each from its committed corpus:
#
#   bash test/fuzz/run.sh SECONDS NAME...      (build/fuzz_NAME, built beforehand)
#
# Each starts from test/fuzz/corpus/NAME and puts what it finds new in build/corpus_NAME. Its output goes to
# build/fuzz_NAME.log and its exit status to build/fuzz_NAME.status: 0, or 1 for any finding (a crash, a leak, a
# timeout; libFuzzer's own default, 77, would read as "skipped"), whose input is kept as build/fuzz_NAME-crash-...
# TAP: one test per target run, passed when it found nothing, with its number of executions; a failed one shows the
# end of its log. The targets need no server, so this does not build and install idcodec first as the suites on a
# cluster do (test/lib/suite.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/tap.sh
seconds=${1:?usage: bash test/fuzz/run.sh SECONDS NAME...}
shift

fuzz_target() {  # fuzz_target SECONDS NAME
    mkdir -p "build/corpus_$2" "test/fuzz/corpus/$2"
    "build/fuzz_$2" -max_total_time="$1" -max_len=4096 -print_final_stats=1 -error_exitcode=1 -timeout_exitcode=1 \
        -artifact_prefix="build/fuzz_$2-" "build/corpus_$2" "test/fuzz/corpus/$2" >"build/fuzz_$2.log" 2>&1
    echo $? >"build/fuzz_$2.status"
}
export -f fuzz_target

for name in "$@"; do rm -f "build/fuzz_$name.status"; done
printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} bash -c 'fuzz_target "$1" "$2"' fuzz "$seconds" {}
for name in "$@"; do
    status=$(cat "build/fuzz_$name.status" 2>/dev/null)
    # libFuzzer's final statistics: how many inputs it ran
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "build/fuzz_$name.log" 2>/dev/null | tail -n 1)
    if [ "$status" = 0 ]; then
        tap_ok "fuzz $name: $seconds s, ${runs:-?} executions, no crash, leak or timeout"
    elif [ ! -x "build/fuzz_$name" ]; then
        tap_not_ok "fuzz $name: build/fuzz_$name is built (make build/fuzz_$name)"
    else
        tap_not_ok "fuzz $name: $seconds s, ${runs:-?} executions, no crash, leak or timeout (exit status ${status:-none})" \
            "$(tail -n 40 "build/fuzz_$name.log" 2>/dev/null; ls build/fuzz_"$name"-* 2>/dev/null | sed 's/^/kept: /')"
    fi
done
tap_done
