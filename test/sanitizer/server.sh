#!/usr/bin/env bash
# idcodec under AddressSanitizer and UBSan inside a real server: builds idcodec.so with both (in a copy of the
# sources), installs it, starts a throwaway postmaster with the sanitizer runtimes preloaded, and runs every
# pg_regress suite, the survival battery, the systematic hostile battery and a short sqlsmith run against it.
# Fails on any sanitizer report (each one aborts the backend that hit it) and on any failing suite. Then the
# positive control: deliberate faults built into this build alone (test/sanitizer/control.cpp), each of which must be
# reported, so a run whose sanitizers silently stopped working fails.
# TAP: the server runs the sanitizers, the suites' tests as this suite's (each prefixed with its name), no sanitizer
# report and no backend stopped abnormally, and each positive control reported.
source "$(dirname "$0")/../lib/suite.sh"
ROOT=$IDCODEC_ROOT
cd "$ROOT"

# ---- the sanitized library, built in a copy so the normal objects stay as they are, and installed into an
# installation of its own, so suites running beside this one keep the normal library
installation=$IDCODEC_CACHE/asan-$(printf '%s' "$ROOT" | md5sum | cut -c1-8)
rm -rf "$installation"
copy_system_installation "$installation"
export PG_BIN=$installation$SYSTEM_PG/bin
pg_config=$PG_BIN/pg_config
copy=$ROOT/build/asan-server
source test/lib/postgres_build.sh
idcodec_copy_sources "$copy"
make -C "$copy" -s -j"$(nproc)" PG_CONFIG="$pg_config" SANITIZE_SERVER=1 >/dev/null
make -C "$copy" -s PG_CONFIG="$pg_config" SANITIZE_SERVER=1 WITH_RELEASE_FIXTURES=1 install >/dev/null

source test/lib/cluster.sh
# Everything the server loads must be readable by the server user, which the checkout may not be (a clone under
# /root): the shim goes into the clusters' directory. A preload the server cannot read is only warned about, and
# without the shim the server hangs, so a missing shim is an error here.
gcc -shared -fPIC -O2 -o "$CLUSTERS/nls_shim.so" test/sanitizer/nls_shim.c
chmod 755 "$CLUSTERS/nls_shim.so"
if as_postgres test -r "$CLUSTERS/nls_shim.so"; then
    tap_ok "the server user can read the NLS shim preloaded with the sanitizer runtimes"
else
    tap_not_ok "the server user can read the NLS shim preloaded with the sanitizer runtimes" "$CLUSTERS/nls_shim.so"
    tap_done
    exit 1
fi
runtimes="$CLUSTERS/nls_shim.so:$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
reports=$CLUSTERS/reports
mkdir -p "$reports"
chmod 777 "$reports"
# leaks are PostgreSQL's business (it frees by memory context, at exit); everything else stops the backend
# (the shim goes first, so the runtime's own check that it comes first is turned off)
CLUSTER_ENV=("LD_PRELOAD=$runtimes"
             "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0:log_path=$reports/asan"
             "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan")
port=$(free_port)
cluster_start asan "$port" "log_error_verbosity=verbose" "max_connections=120" >&2
CLUSTER_ENV=()
export PGHOST=localhost PGPORT=$port PGUSER=postgres PGDATABASE=postgres
# the suites below read the server log (a backend terminated by a signal is a failure there too)
export SERVER_LOG=$(cluster_log asan)
started=$(cluster_psql "$port" -d postgres -c "SELECT pg_postmaster_start_time()")
# the backend runs with the sanitizer runtime and the sanitized library mapped
loaded=$(cluster_psql "$port" -d postgres -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec" \
             -c "SELECT hashids_encode(1) IS NOT NULL AND pg_read_file('/proc/self/maps') ~ 'libasan'")
if [ "$loaded" = t ]; then
    tap_ok "the server loaded the sanitizer runtime"
else
    tap_not_ok "the server loaded the sanitizer runtime" "$loaded"
    tap_done
    exit 1
fi

# The suites against this server (their suite_cluster finds it in PGHOST and PGPORT), each test of theirs one of this
# suite. (pg_regress in the copy: its results stay apart from a pg_regress run in the checkout beside this one.)
# (tap_include runs each suite as a plain command: under set -e, one that fails would end this suite there)
set +e
tap_include "pg_regress" bash test/regress/run.sh "$copy"
tap_include "survival battery" bash test/integration/survival.sh
tap_include "hostile battery" bash test/integration/hostile.sh
tap_include "sqlsmith" env IDCODEC_SQLSMITH_PORT="$port" IDCODEC_SQLSMITH_LOG="$CLUSTERS/asan.log" \
    IDCODEC_SQLSMITH_SECONDS="${IDCODEC_ASAN_SQLSMITH_SECONDS:-30}" bash test/integration/sqlsmith.sh
set -e

found=$(find "$reports" -type f | wc -l)
if [ "$found" -eq 0 ] && ! grep -qE 'AddressSanitizer|runtime error:' "$CLUSTERS/asan.log"; then
    tap_ok "no sanitizer report"
else
    tap_not_ok "no sanitizer report ($found report files)" \
        "$(head -n 60 "$reports"/* 2>/dev/null; grep -A20 -E 'AddressSanitizer|runtime error:' "$CLUSTERS/asan.log" | head -n 40)"
fi
now=$(cluster_psql "$port" -d postgres -c "SELECT pg_postmaster_start_time()")
if [ "$now" = "$started" ] && ! grep -q 'terminated by signal' "$CLUSTERS/asan.log"; then
    tap_ok "no backend stopped abnormally"
else
    tap_not_ok "no backend stopped abnormally" "$(grep -B2 -A5 'terminated by signal' "$CLUSTERS/asan.log" | head -n 20)"
fi

# ---- the positive control, last: each fault aborts its backend, and the server recovers before the next one
cluster_psql "$port" -d postgres -c "CREATE FUNCTION idcodec_sanitizer_control(text, bigint) RETURNS bigint
    AS '\$libdir/idcodec', 'idcodec_sanitizer_control' LANGUAGE C STRICT"
control() {  # control FAULT SANITIZER PATTERN: the call must die, and a new report must say PATTERN
    local fault=$1 sanitizer=$2 pattern=$3 before out new log_bytes
    local what="positive control: $sanitizer reports the deliberate $fault"
    before=$(ls "$reports")
    log_bytes=$(stat -c %s "$CLUSTERS/asan.log")
    if out=$(cluster_psql "$port" -d postgres -c "SELECT idcodec_sanitizer_control('$fault', 16)" 2>&1); then
        tap_not_ok "$what" "the $fault call returned ($out): the build is not sanitized"
        return
    fi
    # the server recovering from the aborted backend: up to a minute
    for _ in $(seq 1 120); do cluster_psql "$port" -d postgres -c "SELECT 1" >/dev/null 2>&1 && break; sleep 0.5; done
    # what was reported since the call: new report files (ASan's) and the server log's new lines (UBSan writes its
    # reports there when both runtimes are loaded)
    tail -c +$((log_bytes + 1)) "$CLUSTERS/asan.log" >"$reports.since"
    new=$(comm -13 <(echo "$before") <(ls "$reports") | sed "s|^|$reports/|")
    if grep -q "$pattern" $new "$reports.since" && grep -qE "idcodec_sanitizer_control|control.cpp" $new "$reports.since"
    then
        tap_ok "$what"
    else
        tap_not_ok "$what" "no report of it (new report files: ${new:-none})"
    fi
}
control heap-buffer-overflow AddressSanitizer "ERROR: AddressSanitizer: heap-buffer-overflow"
control shift-out-of-bounds UBSan "runtime error: shift exponent"
tap_diag "server under ASan+UBSan: $found sanitizer reports before the control"
tap_done
