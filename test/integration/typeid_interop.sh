#!/usr/bin/env bash
# Interop test of the typeid_*, ulid_* and uuid_generate_v7 SQL functions against the real typeid-js 1.2.0 and
# ulid 3.0.2 from npm (test/interop/), on the suite's cluster. TAP: both packages installed, then one test per SQL
# function and kind of input (test/interop/typeid_interop.js), passed when every case matches. Skips as a whole when
# npm can neither reach the registry nor install both packages from its cache. IDCODEC_INTEROP_SEED=N reproduces a
# run; IDCODEC_INTEROP_CASES=N changes its size (default 3000 UUIDs; ULIDs made by ulid and IDs made in SQL on top).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
source test/interop/npm_install.sh
# interop_prepare checks one package: once per package, so a missing ulid skips or fails here too (the second
# `npm install` finds everything in place and takes well under a second).
interop_require typeid typeid-js 1.2.0
interop_require typeid ulid 3.0.2

export PGCLIENTENCODING=UTF8
# (tap_include runs the suite as a plain command: under set -e, one that fails would end this suite there)
set +e
tap_include "typeid interop" node "$INTEROP_DIR/typeid_interop.js"
tap_done
