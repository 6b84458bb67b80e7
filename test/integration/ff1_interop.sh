#!/usr/bin/env bash
# Interop test of the ff1_* and idcrypt_* SQL functions against the FF1 of the real @noble/ciphers 2.4.0 from npm
# (test/interop/ff1_interop.js). Run by scripts/test.sh from the repo root with PGHOST/PGPORT/PGUSER/PGDATABASE set for
# a running cluster where idcodec is installed. Passes (exit 0) when every case matches, or prints "SKIPPED: <label>
# interop: npm registry unreachable: ..." and exits 77 when npm can neither reach the registry nor install
# @noble/ciphers from its cache. Any other failure exits non-zero. IDCODEC_INTEROP_SEED=N reproduces a run;
# IDCODEC_INTEROP_CASES=N changes its size (default 3000 FF1 texts and as many encrypted IDs).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../interop/npm_install.sh"
HELPER_DIR=$INTEROP_DIR

# @noble/ciphers is not among the packages test/interop/package.json pins, so it gets a directory of its own in the
# cache outside the checkout (IDCODEC_CACHE, chosen as scripts/setup.sh does), with a package.json pinning it there;
# interop_prepare installs into whatever INTEROP_DIR names when it is called.
if [ -z "${IDCODEC_CACHE:-}" ]; then
    if [ "$(id -u)" = 0 ]; then
        IDCODEC_CACHE=/var/cache/idcodec
    else
        IDCODEC_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/idcodec
    fi
fi
INTEROP_DIR=$IDCODEC_CACHE/npm-noble-ciphers-2.4.0
mkdir -p "$INTEROP_DIR"
package_json='{ "name": "idcodec-ff1-interop", "version": "0.0.0", "private": true, "license": "UNLICENSED",
  "dependencies": { "@noble/ciphers": "2.4.0" } }'
[ "$(cat "$INTEROP_DIR/package.json" 2>/dev/null)" = "$package_json" ] ||
    printf '%s\n' "$package_json" >"$INTEROP_DIR/package.json"
# The directory is shared by every checkout on the machine: one npm install in it at a time.
exec 9>"$INTEROP_DIR/.lock"
flock 9
interop_prepare ff1 @noble/ciphers 2.4.0
exec 9>&-

export PGCLIENTENCODING=UTF8
export IDCODEC_FF1_NODE_MODULES=$INTEROP_DIR/node_modules
exec node "$HELPER_DIR/ff1_interop.js"
