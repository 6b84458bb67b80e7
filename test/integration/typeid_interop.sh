#!/usr/bin/env bash
# Interop test of the typeid_*, ulid_* and uuid_generate_v7 SQL functions against the real typeid-js 1.2.0 and
# ulid 3.0.2 from npm (test/interop/). Run by scripts/test.sh from the repo root with PGHOST/PGPORT/PGUSER/PGDATABASE
# set for a running cluster where idcodec is installed. Passes (exit 0) when every case matches, or prints
# "SKIPPED: <label> interop: npm registry unreachable: ..." and exits 77 when npm can neither reach the registry nor
# install both packages from its cache. Any other failure exits non-zero. IDCODEC_INTEROP_SEED=N reproduces a run;
# IDCODEC_INTEROP_CASES=N changes its size (default 3000 UUIDs; ULIDs made by ulid and IDs made in SQL on top).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../interop/npm_install.sh"
# interop_prepare checks one package: once per package, so a missing ulid skips or fails here too (the second
# `npm install` finds everything in place and takes well under a second).
interop_prepare typeid typeid-js 1.2.0
interop_prepare typeid ulid 3.0.2

export PGCLIENTENCODING=UTF8
exec node "$INTEROP_DIR/typeid_interop.js"
