#!/usr/bin/env bash
# make check-scripts: installs the pinned libpg-query (npm) beside check_scripts.js and checks every install and
# upgrade script of both extensions (the earlier releases' complete install scripts too, the fixtures in
# test/releases/ that test installations install), and the functions the examples create. TAP: the parser
# installed, one test per script (passed when it has no finding that is not accepted with a reason, its findings
# the diagnostics of a failed one), and that the check ran to its end. Skips as a whole when neither the npm
# registry (unreachable) nor npm's cache has the parser. It needs no server, so it does not build and install
# idcodec first as the suites on a cluster do (test/lib/suite.sh): it reads the sources alone.
#
#   bash test/security/check_scripts.sh                  the check
#   bash test/security/check_scripts.sh --names FILE...  what the files use (check_scripts.js --names), for traps: one
#                                                        name a line (not TAP); when the parser cannot be had, prints
#                                                        "SKIPPED: <reason>" and exits 77
set -euo pipefail
caller=$PWD  # (--names reads the files named relative to it)
cd "$(dirname "$0")/../.."
source test/lib/tap.sh
source test/lib/npm.sh
names=$([ "${1:-}" = --names ] && echo yes || echo no)
installed="libpg-query installed from npm in test/security/node_modules"
missing=""
for tool in node npm; do
    command -v "$tool" >/dev/null || missing+=" $tool"
done
if [ -n "$missing" ]; then
    [ $names = no ] || { echo "check-scripts:$missing not found (scripts/setup.sh installs them)" >&2; exit 1; }
    tap_not_ok "$installed" "check-scripts:$missing not found (scripts/setup.sh installs them)"
    tap_done
fi
status=0
cd test/security
npm_install_or_skip check-scripts 120 test -d node_modules/libpg-query || status=$?
cd ../..
if [ $names = yes ]; then
    case $status in
        0) script=$PWD/test/security/check_scripts.js; cd "$caller"; exec node "$script" "$@" ;;
        77) echo "SKIPPED: $NPM_SKIP_REASON"; exit 77 ;;
        *) printf '%s\n' "$NPM_FAILURE" >&2; exit 1 ;;
    esac
fi
case $status in
    0) tap_ok "$installed" ;;
    77) tap_skip_all "$NPM_SKIP_REASON" ;;
    *) tap_not_ok "$installed" "$(tail -n 30 <<<"$NPM_FAILURE")"; tap_done ;;
esac

scripts=(idcodec--*.sql idcodec_pg_hashids--*.sql test/releases/*.sql)
examples=(examples/*.sql)
result=0
out=$(node test/security/check_scripts.js "${scripts[@]}" --functions "${examples[@]}" 2>&1) || result=$?
# Findings are "FILE:LINE: RULE message" (or "FILE:1: parse error: ..."): a test per file
for file in "${scripts[@]}" "${examples[@]}"; do
    what="$file: no finding but those accepted with a reason"
    case " ${examples[*]} " in *" $file "*) what="$file: its CREATE FUNCTION statements: no finding but those accepted with a reason" ;; esac
    findings=$(awk -v f="$file:" 'index($0, f) == 1 && substr($0, length(f) + 1) ~ /^[0-9]+: /' <<<"$out")
    if [ -z "$findings" ]; then
        tap_ok "$what"
    else
        tap_not_ok "$what: $(wc -l <<<"$findings") findings" "$(head -n 30 <<<"$findings")"
    fi
done
summary=$(grep -E '^[0-9]+ scripts, [0-9]+ statements: ' <<<"$out" || true)
# the check ends with its summary line, and exit status 1 exactly when it found something
found=$(sed -nE 's/.*: ([0-9]+) findings,.*/\1/p' <<<"$summary")
if [ -n "$summary" ] && [ "$result" = "$([ "${found:-0}" = 0 ] && echo 0 || echo 1)" ]; then
    tap_ok "test/security/check_scripts.js ran to its end: $summary"
else
    tap_not_ok "test/security/check_scripts.js ran to its end (exit status $result)" "$(tail -n 30 <<<"$out")"
fi
tap_done
