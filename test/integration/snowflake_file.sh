#!/usr/bin/env bash
# snowflake_generate() and its reservation file, idcodec_snowflake in the data directory, on a cluster of its own
# (node 7): the lock the first generation of a server life holds while it reads the file. A backend waiting for it
# shows the wait event of idcodec's own LWLock tranche, "idcodec snowflake" (strace holds the first backend at its
# open of the file; skipped without strace), without preloading (to a session that has called a generating function,
# as only such a process knows the tranche's name) and with shared_preload_libraries = 'idcodec' (to any session);
# preloaded, a crash of a backend and the server's restart leave generation working, above the keys made before.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/cluster.sh
source test/lib/psql_fifo.sh

node=7
port=$(free_port)
work=$CLUSTERS/work
mkdir -p "$work"
cluster_init sf >&2
settings=("idcodec.node_id=$node")
start() { cluster_run sf "$port" "${settings[@]}" >&2; }
stop() { cluster_stop sf >&2; }
log=$(cluster_log sf)
log_lines() { wc -l <"$log"; }
start
q() { cluster_psql "$port" -d postgres "$@"; }
q -c "CREATE EXTENSION idcodec" -c "CREATE TABLE made (id bigint)"

# above DESCRIPTION LAST: a key generated now is above every key kept and above LAST (and is kept)
above() {
    local first
    first=$(q -c "INSERT INTO made SELECT snowflake_generate() RETURNING id" 2>&1) || true
    if ! [[ $first =~ ^[0-9]+$ ]]; then
        tap_not_ok "$1" "no key: $first"
        return
    fi
    check "$1" "$(q -c "SELECT count(*) FILTER (WHERE id >= $first) || ' kept at or above it; above the last: '
                              || ($first > ${2:-0}) FROM made")" "1 kept at or above it; above the last: true"
}
# await SECONDS COMMAND...: until COMMAND succeeds; fails when SECONDS pass first
await() {
    local until=$((SECONDS + $1))
    shift
    until "$@"; do
        [ $SECONDS -lt $until ] || return 1
        sleep 0.05
    done
}

traced() { grep -q '^TracerPid:[[:space:]]*[1-9]' "/proc/$1/status"; }
at_open() { grep -q idcodec_snowflake "$work/strace.out" 2>/dev/null; }
# waiting OBSERVER_SQL: B's wait event (type: name) as the session running OBSERVER_SQL first sees it, once B waits
# on an LWLock
waiting() {
    event=$(q -c "$1 SELECT wait_event_type || ': ' || wait_event FROM pg_stat_activity
                  WHERE application_name = 'idcodec_b' AND wait_event_type = 'LWLock'")
    [ -n "$event" ]
}
# lock_wait MODE OBSERVER_SQL: on a new server life (MODE preloaded: with shared_preload_libraries = 'idcodec'),
# session A is held by strace at its open of the file, inside the start of the life, and session B's generation
# waits for it; checks the wait event B shows and that both get keys once A goes on
lock_wait() {
    local mode=$1 a_pid tracer key_a key_b b
    settings=("idcodec.node_id=$node")
    [ "$mode" = preloaded ] && settings+=("shared_preload_libraries=idcodec")
    stop
    start
    rm -f "$work/a.in" "$work/a.out" "$work/strace.out"
    mkfifo "$work/a.in" "$work/a.out"
    psql_fifo_connect "$port" idcodec_a "$work/a.in" "$work/a.out" "$work/a.err" "SELECT pg_backend_pid();" '^[0-9]+$'
    a_pid=$fifo_first
    strace -p "$a_pid" -P idcodec_snowflake -e trace=openat -e inject=openat:delay_enter=120000000 \
        -o "$work/strace.out" 2>>"$work/strace.err" &
    tracer=$!
    event=""
    if await 30 traced "$a_pid"; then
        printf 'SELECT snowflake_generate();\n' >&"$fifo_w"
        if await 30 at_open; then
            PGAPPNAME=idcodec_b q -c "SELECT snowflake_generate()" >"$work/b.out" 2>&1 &
            b=$!
            await 30 waiting "$2" || true
            kill "$tracer"
            wait "$b" || true
        fi
    fi
    kill "$tracer" 2>/dev/null || true
    wait "$tracer" || true
    read -r -t 30 key_a <&"$fifo_r" || key_a="none: $(tail -n 3 "$work/a.err")"
    psql_fifo_close || true
    key_b=$(cat "$work/b.out" 2>/dev/null) || true
    check "$mode: a backend waiting for the start of a server life shows LWLock: idcodec snowflake" \
        "$event" "LWLock: idcodec snowflake"
    [ -n "$event" ] || tap_diag "$(cat "$work/strace.err")"
    check "... once the first goes on, both get keys, two of them" \
        "$([[ $key_a =~ ^[0-9]+$ ]] && [[ $key_b =~ ^[0-9]+$ ]] && [ "$key_a" != "$key_b" ] && echo two ||
           echo "$key_a / $key_b")" two
}

if ! command -v strace >/dev/null; then
    tap_skip "strace is not installed" 6
else
    # Without preloading, a process knows the name once it has attached to the generator: a generating function
    # refused before it starts the life (an ID of the future) attaches the observing session, and waits for nothing.
    lock_wait lazy "DO \$\$ BEGIN PERFORM snowflake_generate_above(9223372036854775807);
                    EXCEPTION WHEN numeric_value_out_of_range THEN NULL; END \$\$;"
    lock_wait preloaded ""
    # preloaded, the postmaster makes the structure again in the new segment after a crash
    before=$(q -c "INSERT INTO made SELECT snowflake_generate() RETURNING id")
    PGAPPNAME=idcodec_victim q -c "SELECT pg_sleep(300)" >/dev/null 2>&1 &
    victim_client=$!
    victim=""
    find_victim() { victim=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'idcodec_victim'"); [ -n "$victim" ]; }
    await 30 find_victim || true
    since=$(($(log_lines) + 1))
    [ -n "$victim" ] && kill -KILL "$victim"
    wait "$victim_client" || true
    reinitialized() { tail -n +"$since" "$log" | grep -q 'all server processes terminated; reinitializing'; }
    check "preloaded, a backend killed: the server restarts (its log says it reinitializes)" \
        "$(await 60 reinitialized && echo restarts)" restarts
    await 60 q -c "SELECT 1" >/dev/null 2>&1 || true
    above "... and generation resumes above every key made before" "$before"
fi

tap_done
