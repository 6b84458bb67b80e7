#!/usr/bin/env bash
# Interop test of the ff1_* and idcrypt_* SQL functions against the FF1 of the real @noble/ciphers 2.4.0 from npm
# (test/interop/). Run by scripts/test.sh from the repo root with PGHOST/PGPORT/PGUSER/PGDATABASE set for a running
# cluster where idcodec is installed. Passes (exit 0) when every case matches, or prints "SKIPPED: <label> interop:
# npm registry unreachable: ..." and exits 77 when npm can neither reach the registry nor install @noble/ciphers from
# its cache. Any other failure exits non-zero. IDCODEC_INTEROP_SEED=N reproduces a run; IDCODEC_INTEROP_CASES=N
# changes its size (default 3000 FF1 texts and as many encrypted IDs).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../interop/npm_install.sh"
interop_prepare ff1 @noble/ciphers 2.4.0

export PGCLIENTENCODING=UTF8
exec node "$INTEROP_DIR/ff1_interop.js"
