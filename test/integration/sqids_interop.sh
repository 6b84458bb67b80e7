#!/usr/bin/env bash
# Interop test of the sqids_* SQL functions against the real sqids.js 0.3.0 from npm (test/interop/), on the suite's
# cluster. TAP: sqids.js installed, then one test per SQL function and kind of input
# (test/interop/sqids_interop.js), passed when every case matches. Skips as a whole when npm can neither reach the
# registry nor install sqids from its cache. IDCODEC_INTEROP_SEED=N reproduces a run; IDCODEC_INTEROP_CASES=N
# changes its size (default 3000).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
source test/interop/npm_install.sh
interop_require sqids sqids 0.3.0

export PGCLIENTENCODING=UTF8
# (tap_include runs the suite as a plain command: under set -e, one that fails would end this suite there)
set +e
tap_include "sqids interop" node "$INTEROP_DIR/sqids_interop.js"
tap_done
