#!/usr/bin/env bash
# The build's own rules as tests: the core calls nothing locale-sensitive (make check-locale-free), the core/shim
# boundary holds (test/boundary/check.sh), the C++ is formatted as .clang-format says, and the benchmark programs
# (built with the test programs: test/prepare.sh programs) and scripts are there and parse (`make bench` is not run
# here: timings are no test).
source "$(dirname "$0")/lib/suite.sh"
tap_run "the core includes and calls nothing locale-sensitive (make check-locale-free)" \
    make -s check-locale-free PG_CONFIG="$PG_BIN/pg_config"
tap_include "core/shim boundary" bash test/boundary/check.sh
tap_run "the C++ sources are formatted as .clang-format says" make -s check-format
for program in build/core_bench build/chunker_speed; do
    if [ -x "$program" ]; then tap_ok "the benchmark program $program is built"; else tap_not_ok "the benchmark program $program is built"; fi
done
for script in test/bench/run.sh test/bench/peers/run.sh test/bench/charts.sh; do
    tap_run "$script parses" bash -n "$script"
done
tap_done
