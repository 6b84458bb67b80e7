#!/usr/bin/env bash
# Runs libFuzzer targets, as many at a time as there are cores, each from its committed corpus:
#
#   bash test/fuzz/run.sh SECONDS NAME...      (build/fuzz_NAME, built beforehand)
#
# Each starts from test/fuzz/corpus/NAME and puts what it finds new in build/corpus_NAME. Its output goes to
# build/fuzz_NAME.log and its exit status to build/fuzz_NAME.status: 0, or 1 for any finding (a crash, a leak, a
# timeout; libFuzzer's own default, 77, would read as "skipped"), whose input is kept as build/fuzz_NAME-crash-...
# Exits 1 when any target found something.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=$1
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
found=0
for name in "$@"; do [ "$(cat "build/fuzz_$name.status" 2>/dev/null)" = 0 ] || found=1; done
exit $found
