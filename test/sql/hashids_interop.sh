#!/usr/bin/env bash
# Interop test of the hashids_* SQL functions against the real hashids.js 2.3.0 from npm (test/interop/).
# Run by scripts/test.sh from the repo root with PGHOST/PGPORT/PGUSER/PGDATABASE set for a running cluster where
# idcodec is installed. Passes (exit 0) when every case matches, or prints "SKIPPED: npm registry unreachable: ..."
# and exits 0 when npm can neither reach the registry nor install hashids from its cache. Any other failure exits
# non-zero. IDCODEC_INTEROP_SEED=N reproduces a run; IDCODEC_INTEROP_CASES=N changes its size (default 3000).
set -euo pipefail

INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../interop" && pwd)
cd "$INTEROP_DIR"

for tool in node npm psql; do
    command -v "$tool" >/dev/null || { echo "hashids interop: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
done

installed_version() {
    node -e 'try { process.stdout.write(require("./node_modules/hashids/package.json").version) } catch (e) {}'
}

# Short network timeouts so an unreachable registry is noticed quickly; the cache is used when it has the package.
NPM_FLAGS=(--no-audit --no-fund --no-update-notifier --loglevel=error --prefer-offline
           --fetch-timeout=15000 --fetch-retries=1 --fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000)
if ! npm_out=$(timeout 75 npm install "${NPM_FLAGS[@]}" 2>&1); then
    if [ "$(installed_version)" != 2.3.0 ]; then
        # Tell an unreachable registry (skip) from any other npm failure (fail).
        network_error=$(grep -oE 'E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH|SOCKETTIMEOUT)|network|proxy|getaddrinfo|socket hang up' \
                        <<<"$npm_out" | head -n1 || true)
        ping_ok=0
        if [ -z "$network_error" ] && timeout 30 npm ping --fetch-timeout=10000 --fetch-retries=0 >/dev/null 2>&1; then
            ping_ok=1
        fi
        if [ $ping_ok = 0 ]; then
            reason=$({ grep -m1 -E 'FetchError|request to .* failed' <<<"$npm_out" ||
                       grep -m1 -E 'npm (error|ERR!)' <<<"$npm_out" || true; } | sed -E 's/^npm (error|ERR!) *//')
            echo "SKIPPED: npm registry unreachable: ${reason:-${network_error:-npm install timed out}}"
            exit 0
        fi
        echo "hashids interop: npm install failed although the registry answers:" >&2
        printf '%s\n' "$npm_out" >&2
        exit 1
    fi
fi
version=$(installed_version)
if [ "$version" != 2.3.0 ]; then
    echo "hashids interop: expected hashids 2.3.0 in $INTEROP_DIR/node_modules, found '${version:-nothing}'" >&2
    exit 1
fi

export PGCLIENTENCODING=UTF8
exec node "$INTEROP_DIR/hashids_interop.js"
