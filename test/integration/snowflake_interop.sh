#!/usr/bin/env bash
# Interop test of the snowflake_timestamp, snowflake_node, snowflake_counter and snowflake_least SQL functions:
# the twitter and discord layouts against the real @sapphire/snowflake 3.5.5 from npm (test/interop/), the sonyflake
# layout against the vectors of Sony's Go package (test/vectors/sonyflake/). Run by scripts/test.sh from the repo
# root with PGHOST/PGPORT/PGUSER/PGDATABASE set for a running cluster where idcodec is installed. Passes (exit 0)
# when every case matches, or prints "SKIPPED: <label> interop: npm registry unreachable: ..." and exits 77 when npm
# can neither reach the registry nor install @sapphire/snowflake from its cache (the Sonyflake vectors are checked
# before that all the same). Any other failure exits non-zero. IDCODEC_INTEROP_SEED=N reproduces a run;
# IDCODEC_INTEROP_CASES=N changes its size (default 3000 generated and 3000 random IDs per layout).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../interop/npm_install.sh"
export PGCLIENTENCODING=UTF8

# The vectors need no npm: checked first, so an unreachable registry cannot hide a mismatch there.
node "$INTEROP_DIR/snowflake_interop.js" sonyflake

interop_prepare snowflake @sapphire/snowflake 3.5.5
exec node "$INTEROP_DIR/snowflake_interop.js" sapphire
