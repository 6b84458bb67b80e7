#!/usr/bin/env bash
# Interop test of the ff1_* and idcrypt_* SQL functions against the FF1 of the real @noble/ciphers 2.4.0 from npm
# (test/interop/), on the suite's cluster. TAP: @noble/ciphers installed, then one test per SQL function and kind of
# input (test/interop/ff1_interop.js), passed when every case matches. Skips as a whole when npm can neither reach
# the registry nor install @noble/ciphers from its cache. IDCODEC_INTEROP_SEED=N reproduces a run;
# IDCODEC_INTEROP_CASES=N changes its size (default 3000 FF1 texts and as many encrypted IDs).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
source test/interop/npm_install.sh
interop_require ff1 @noble/ciphers 2.4.0

export PGCLIENTENCODING=UTF8
# (tap_include runs the suite as a plain command: under set -e, one that fails would end this suite there)
set +e
tap_include "ff1 interop" node "$INTEROP_DIR/ff1_interop.js"
tap_done
