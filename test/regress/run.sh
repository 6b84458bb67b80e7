#!/usr/bin/env bash
# The pg_regress suites (sql/, expected/: one per feature) as TAP: `make installcheck` on the suite's cluster
# (suite_cluster: the caller's, or a throwaway one), one TAP test per pg_regress file. pg_regress of PostgreSQL 16 and
# later reports in TAP itself; 15's "name ... ok" lines are read into TAP here. A failed file's diff follows it as
# diagnostics.
#
#   bash test/regress/run.sh [SOURCE_DIR]     SOURCE_DIR: a copy of the sources built for PG_BIN's major
#                                             (test/major.sh's), by default the checkout
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
dir=${1:-$IDCODEC_ROOT}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
make -C "$dir" -s installcheck PG_CONFIG="$PG_BIN/pg_config" >"$out" 2>&1 || status=$?
seen=0
while IFS= read -r line; do
    tap_parse_line "$line"
    if [ "$TAP_KIND" = other ] && [[ $line =~ ^(test[[:space:]]+|[[:space:]]+)([A-Za-z0-9_]+)[[:space:]]+\.\.\.[[:space:]]+([A-Za-z]+) ]]; then
        TAP_TEXT=${BASH_REMATCH[2]}
        case ${BASH_REMATCH[3]} in
            ok) TAP_KIND=ok ;;
            *) TAP_KIND=not_ok ;;
        esac
    fi
    case $TAP_KIND in
        ok) tap_ok "$TAP_TEXT"; seen=$((seen + 1)) ;;
        not_ok)
            name=${TAP_TEXT%% *}
            tap_not_ok "$TAP_TEXT" "$(sed -n "/^diff .*\/$name\.out/,/^diff /p" "$dir/regression.diffs" 2>/dev/null | head -n 60)"
            seen=$((seen + 1)) ;;
    esac
done <"$out"
if [ $seen = 0 ] || { [ $status != 0 ] && [ "$TAP_FAILED" = 0 ]; }; then
    tap_not_ok "make installcheck ran the suites (exit status $status)" "$(tail -n 30 "$out")"
fi
tap_done
