#!/usr/bin/env bash
# Interop test of the snowflake_timestamp, snowflake_node, snowflake_counter and snowflake_least SQL functions:
# the twitter and discord layouts against the real @sapphire/snowflake 3.5.5 from npm (test/interop/), the sonyflake
# layout against the vectors of Sony's Go package (test/vectors/sonyflake/), on the suite's cluster. TAP: one test
# per SQL function and kind of input of each part (test/interop/snowflake_interop.js), passed when every case
# matches, and @sapphire/snowflake installed. When npm can neither reach the registry nor install
# @sapphire/snowflake from its cache, that part is skipped (the Sonyflake vectors are checked all the same).
# IDCODEC_INTEROP_SEED=N reproduces a run; IDCODEC_INTEROP_CASES=N changes its size (default 3000 generated and 3000
# random IDs per layout).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
source test/interop/npm_install.sh
export PGCLIENTENCODING=UTF8

# The vectors need no npm: checked first, so an unreachable registry cannot hide a mismatch there.
# (tap_include runs the suite as a plain command: under set -e, one that fails would end this suite there)
tap_include "sonyflake vectors" node "$INTEROP_DIR/snowflake_interop.js" sonyflake || true

status=0
interop_prepare snowflake @sapphire/snowflake 3.5.5 || status=$?
case $status in
    0) tap_include "@sapphire/snowflake interop" node "$INTEROP_DIR/snowflake_interop.js" sapphire || true ;;
    77) tap_skip "@sapphire/snowflake interop: $INTEROP_SKIP_REASON" ;;
esac
tap_done
