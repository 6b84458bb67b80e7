#!/usr/bin/env bash
# What the suites need built before they run: the test command's preparation jobs (they are not tests). Each is built
# once per machine into the cache outside the checkout (IDCODEC_CACHE, scripts/setup.sh) and reused while its inputs
# are the same.
#
#   bash test/prepare.sh postgres VERSION    a stock PostgreSQL release (test/lib/postgres_build.sh)
#   bash test/prepare.sh citus [VERSION]     Citus for that stock release, or for the default major without one
#   bash test/prepare.sh programs            the C++ test programs (unit tests, sanitized unit tests, fuzz targets,
#                                            benchmarks) in build/, from the cache when it holds them for the same
#                                            sources, flags and compilers
#   bash test/prepare.sh drivers             the suites' libpq client programs, from the cache in the same way
#
# Exits 0 when it is done, 77 when a peer's source is not beside the checkout (its suites then skip, saying why; the
# reason is the last line on stderr), else 1.
source "$(dirname "$0")/../scripts/setup.sh"
source test/lib/postgres_build.sh
source test/lib/citus_build.sh

# cached_build NAME SOURCES -- TARGETS: make TARGETS (in build/), or copy them from the cache when it holds them for
# the same SOURCES (files and directories), Makefile (their flags), compilers and PostgreSQL (whose build flags the
# extension's objects, which the unit tests link, use; and libpq, which the drivers link); the three newest sets of
# each NAME are kept
cached_build() {
    local name=$1 sources=() targets key cached
    shift
    while [ "$1" != -- ]; do sources+=("$1"); shift; done
    shift
    targets=("$@")
    key=$({
        find "${sources[@]}" Makefile -path test/fuzz/corpus -prune -o -type f \
            \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name Makefile \) -print | LC_ALL=C sort | xargs sha256sum
        g++ --version | head -n 1
        clang++ --version | head -n 1
        "$PG_BIN/pg_config" --version --cppflags --cflags --libdir
    } | sha256sum | cut -c1-32)
    cached=$IDCODEC_CACHE/$name/$key
    if [ -f "$cached/.complete" ]; then
        mkdir -p build
        cp "${targets[@]/#build\//$cached/}" build/
        # newer than their sources, as if made here: a later make of one of them has nothing to do
        touch "${targets[@]}"
        log "$name from the cache ($cached)"
        return 0
    fi
    make -s -j"$(nproc)" "${targets[@]}" PG_CONFIG="$PG_BIN/pg_config" || return 1
    rm -rf "$cached.tmp"
    mkdir -p "$cached.tmp"
    cp "${targets[@]}" "$cached.tmp/"
    touch "$cached.tmp/.complete"
    rm -rf "$cached"
    mv "$cached.tmp" "$cached"
    ls -1dt "$IDCODEC_CACHE/$name"/*/ | tail -n +4 | xargs -r rm -rf
}

case ${1:-} in
    postgres) postgres_build "$2" ;;
    citus)
        if [ -n "${2:-}" ]; then PG_BIN=$(postgres_prefix "$2")/bin; fi
        out=$(citus_require 2>&1)
        status=$?
        [ $status = 0 ] || printf '%s\n' "$out" >&2
        exit $status ;;
    programs)
        fuzz_targets=(test/fuzz/*.cpp)
        fuzz_targets=("${fuzz_targets[@]/#test\/fuzz\//build/fuzz_}")
        cached_build programs src test/unit test/fuzz test/bench test/sanitizer/control.cpp -- \
            build/unit_tests build/unit_tests_asan build/core_bench build/chunker_speed "${fuzz_targets[@]%.cpp}" ;;
    drivers)
        cached_build drivers test/drivers test/chaos -- \
            build/chaos_driver build/cluster_driver build/binary_types build/plan_diff ;;
    *) echo "usage: bash test/prepare.sh postgres VERSION | citus [VERSION] | programs | drivers" >&2; exit 2 ;;
esac
