# Locks shared by every test run on this machine, for what suites running side by side (scripts/test.sh) would
# otherwise do twice at once: build a peer into the cache, install a peer extension into one PostgreSQL, run
# `npm install` in one directory.
#
#   with_lock NAME COMMAND...   runs COMMAND (a function too, in this shell) holding the lock NAME; waits for it
#
# The lock is a flock on a file in $TMPDIR, so it ends with its holder, however that ends.
with_lock() {
    local name=$1 dir=${TMPDIR:-/tmp}/idcodec-locks fd status
    shift
    mkdir -p "$dir"
    chmod 1777 "$dir" 2>/dev/null || true
    exec {fd}>"$dir/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')"
    flock "$fd"
    "$@"
    status=$?
    exec {fd}>&-
    return $status
}
