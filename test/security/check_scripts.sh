#!/usr/bin/env bash
# make check-scripts: installs the pinned libpg-query (npm) beside check_scripts.js and checks every install and
# upgrade script of both extensions (the earlier releases' complete install scripts too, the fixtures in
# test/releases/ that test installations install), and the functions the examples create. Prints "SKIPPED: ..."
# and exits 77 when neither the npm registry (unreachable) nor npm's cache has the parser.
#
#   bash test/security/check_scripts.sh                  the check
#   bash test/security/check_scripts.sh --names FILE...  what the files use (check_scripts.js --names), for traps
set -euo pipefail
cd "$(dirname "$0")"
for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "check-scripts: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done
source ../lib/npm.sh
npm_install_or_skip check-scripts 120 test -d node_modules/libpg-query
cd - >/dev/null
if [ "${1:-}" = --names ]; then
    exec node "$(dirname "$0")/check_scripts.js" "$@"
fi
cd "$(dirname "$0")/../.."
node test/security/check_scripts.js idcodec--*.sql idcodec_pg_hashids--*.sql test/releases/*.sql --functions examples/*.sql
