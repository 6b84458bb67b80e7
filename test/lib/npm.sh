# npm for the suites that need packages from its registry (test/interop/npm_install.sh,
# test/security/check_scripts.sh).
#
#   npm_install_or_skip LABEL SECONDS COMMAND...
#
# runs `npm install` in the current directory (every package pinned in its package.json) for at most SECONDS, with
# short network timeouts so that an unreachable registry is noticed quickly, and from npm's cache when it has the
# packages. Returns 0 when it succeeds or when COMMAND says what is needed is installed anyway. Otherwise returns 77
# with NPM_SKIP_REASON set ("LABEL: npm registry unreachable: REASON") when the registry cannot be reached (the
# caller skips), and 1 with NPM_FAILURE set to npm's output on any other failure (the registry answers, so the
# failure is ours). Prints nothing: the callers' stdout is TAP.
source "$(dirname "${BASH_SOURCE[0]}")/lock.sh"

npm_install_or_skip() {
    local label=$1 seconds=$2
    shift 2
    local npm_flags=(--no-audit --no-fund --no-update-notifier --loglevel=error --prefer-offline
                     --fetch-timeout=15000 --fetch-retries=1 --fetch-retry-mintimeout=1000 --fetch-retry-maxtimeout=3000)
    local out
    NPM_SKIP_REASON="" NPM_FAILURE=""
    # suites side by side install into the same node_modules one at a time
    out=$(with_lock "npm-$PWD" timeout "$seconds" npm install "${npm_flags[@]}" 2>&1) && return 0
    "$@" && return 0
    # An unreachable registry (skip) told from any other npm failure (fail): npm names the network error, or the
    # registry does not answer a ping (a timeout, or certificates this machine cannot verify).
    local network_error reason
    network_error=$(grep -oE 'E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH|SOCKETTIMEOUT)|network|proxy|getaddrinfo|socket hang up' \
                    <<<"$out" | head -n1 || true)
    if [ -n "$network_error" ] || ! timeout 30 npm ping --fetch-timeout=10000 --fetch-retries=0 >/dev/null 2>&1; then
        reason=$({ grep -m1 -E 'FetchError|request to .* failed' <<<"$out" ||
                   grep -m1 -E 'npm (error|ERR!)' <<<"$out" || true; } | sed -E 's/^npm (error|ERR!) *//')
        NPM_SKIP_REASON="$label: npm registry unreachable: ${reason:-${network_error:-npm install timed out}}"
        return 77
    fi
    NPM_FAILURE="$label: npm install failed although the registry answers:"$'\n'"$out"
    return 1
}
