#!/usr/bin/env bash
# make check-scripts: installs the pinned libpg-query (npm) beside check_scripts.js and checks every install and
# upgrade script of both extensions, and the functions the examples create. Prints "SKIPPED: ..." and exits 77 when
# neither the npm registry nor npm's cache has the parser.
#
#   bash test/security/check_scripts.sh                  the check
#   bash test/security/check_scripts.sh --names FILE...  what the files use (check_scripts.js --names), for traps
set -euo pipefail
cd "$(dirname "$0")"
for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "check-scripts: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done
if ! out=$(timeout 120 npm install --no-audit --no-fund --no-update-notifier --loglevel=error --prefer-offline \
               --fetch-timeout=15000 --fetch-retries=1 2>&1); then
    if [ ! -d node_modules/libpg-query ]; then
        if grep -qE 'E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|network|getaddrinfo' <<<"$out"; then
            echo "SKIPPED: check-scripts: the npm registry is unreachable for libpg-query"
            exit 77
        fi
        printf '%s\n' "$out" >&2
        exit 1
    fi
fi
cd - >/dev/null
if [ "${1:-}" = --names ]; then
    exec node "$(dirname "$0")/check_scripts.js" "$@"
fi
cd "$(dirname "$0")/../.."
node test/security/check_scripts.js idcodec--*.sql idcodec_pg_hashids--*.sql --functions examples/*.sql
