# Shared set-up of the npm interop tests, sourced (bash, set -euo pipefail) by test/integration/*_interop.sh.
#
#   interop_prepare LABEL PACKAGE VERSION
#
# checks that node, npm and psql are on the PATH, cds into test/interop (INTEROP_DIR) and runs `npm install` there
# (every package pinned in package.json). Returns when PACKAGE is installed at exactly VERSION. Prints
# "SKIPPED: LABEL interop: npm registry unreachable: ..." and exits 77 when npm can neither reach the registry nor install the
# package from its cache; exits 1 (messages prefixed "LABEL interop:") on any other failure.

INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# interop_installed_version PACKAGE: the version in node_modules, or nothing.
interop_installed_version() {
    node -e 'try { process.stdout.write(require("./node_modules/" + process.argv[1] + "/package.json").version) } catch (e) {}' "$1"
}

interop_prepare() {
    local label=$1 package=$2 expected=$3
    cd "$INTEROP_DIR"

    local tool
    for tool in node npm psql; do
        command -v "$tool" >/dev/null || { echo "$label interop: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
    done

    # Short network timeouts so an unreachable registry is noticed quickly; the cache is used when it has the package.
    local npm_flags=(--no-audit --no-fund --no-update-notifier --loglevel=error --prefer-offline
                     --fetch-timeout=15000 --fetch-retries=1 --fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000)
    local npm_out
    if ! npm_out=$(timeout 75 npm install "${npm_flags[@]}" 2>&1); then
        if [ "$(interop_installed_version "$package")" != "$expected" ]; then
            # Tell an unreachable registry (skip) from any other npm failure (fail).
            local network_error ping_ok=0 reason
            network_error=$(grep -oE 'E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH|SOCKETTIMEOUT)|network|proxy|getaddrinfo|socket hang up' \
                            <<<"$npm_out" | head -n1 || true)
            if [ -z "$network_error" ] && timeout 30 npm ping --fetch-timeout=10000 --fetch-retries=0 >/dev/null 2>&1; then
                ping_ok=1
            fi
            if [ $ping_ok = 0 ]; then
                reason=$({ grep -m1 -E 'FetchError|request to .* failed' <<<"$npm_out" ||
                           grep -m1 -E 'npm (error|ERR!)' <<<"$npm_out" || true; } | sed -E 's/^npm (error|ERR!) *//')
                echo "SKIPPED: $label interop: npm registry unreachable: ${reason:-${network_error:-npm install timed out}}"
                exit 77
            fi
            echo "$label interop: npm install failed although the registry answers:" >&2
            printf '%s\n' "$npm_out" >&2
            exit 1
        fi
    fi
    local version
    version=$(interop_installed_version "$package")
    if [ "$version" != "$expected" ]; then
        echo "$label interop: expected $package $expected in $INTEROP_DIR/node_modules, found '${version:-nothing}'" >&2
        exit 1
    fi
}
