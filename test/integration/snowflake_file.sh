#!/usr/bin/env bash
# snowflake_generate() and its reservation file, idcodec_snowflake in the data directory, on a cluster of its own
# (node 7):
#   1. the file's place taken by something the server cannot use: a directory, a symbolic link (to a good copy of the
#      file, and dangling), a file the server's user may not write, a FIFO; each found at the start of a server life
#      and each swapped in while the server generates. Every case fails with the documented SQLSTATE (XX001) and a
#      hint, never hangs and crashes no backend, and once the file is usable again (at a start: the server's own file
#      put back; while running: what is there removed, or made writable) generation resumes above every key made
#      before; no key repeats;
#   2. the lock the first generation of a server life holds while it reads the file: a backend waiting for it shows
#      the wait event of idcodec's own LWLock tranche, "idcodec snowflake" (strace holds the first backend at its open
#      of the file; skipped without strace), without preloading (to a session that has called a generating function,
#      as only such a process knows the tranche's name) and with shared_preload_libraries = 'idcodec' (to any
#      session); preloaded, a crash of a backend and the server's restart leave generation working, above the keys
#      made before;
#   3. no assertion failed in the server (on a build with assertions, they check the use of LWLocks).
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/cluster.sh
source test/lib/psql_fifo.sh

node=7
sqlstate=XX001 # what docs/snowflake-ids.md promises for a reservation file the server cannot use
port=$(free_port)
data=$CLUSTERS/sf
state=$data/idcodec_snowflake
good=$CLUSTERS/good-copy # outside the data directory: the server's file, kept while its place holds something else
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

# make_keys N: N keys generated and kept
make_keys() { q -c "INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, $1)"; }
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

# ---- 1. a file the server cannot use
# attempt SQL: what psql reports of SQL, verbosely (the SQLSTATE on the ERROR line), stdout and stderr; bounded in
# time, so that a call that hangs fails the checks instead of the suite
attempt() {
    timeout 120 psql -X -q -At -h localhost -p "$port" -U postgres -d postgres -v VERBOSITY=verbose \
        -c "SET statement_timeout = '60s'" -c "$1" 2>&1 || true
}
code_of() { sed -nE 's/^ERROR:  ([0-9A-Z]{5}): .*/\1/p' <<<"$1" | head -n 1; }
hint_of() { sed -nE 's/^HINT:  (.*)/\1/p' <<<"$1" | head -n 1; }
# Generation until it fails, in one statement: the error, with the last key made before it in a notice (the keys of
# the statement are rolled back with it, yet handed out).
until_failure="
DO \$\$
DECLARE
    last bigint;
BEGIN
    LOOP
        BEGIN
            last := snowflake_generate();
        EXCEPTION WHEN OTHERS THEN
            RAISE NOTICE 'last key: %', last;
            RAISE;
        END;
    END LOOP;
END
\$\$"
last_of() { sed -nE 's/^NOTICE:  00000: last key: ([0-9]+)$/\1/p' <<<"$1" | head -n 1; }

# spoil KIND: the file's place taken by KIND (the file itself moved to $good first, but for read-only). While the
# server runs, its reserver rewrites the file twice a second and may write it again between the move and what takes
# its place: then the newer file is moved instead (its reservation is the higher), and KIND put there again.
spoil() {
    if [ "$1" = read-only ]; then
        as_postgres chmod 0400 "$state"
        return
    fi
    local attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        as_postgres mv "$state" "$good"
        case $1 in
            directory) as_postgres mkdir "$state" 2>/dev/null ;;
            link) as_postgres ln -s "$good" "$state" 2>/dev/null ;;
            dangling) as_postgres ln -s "$CLUSTERS/nowhere" "$state" 2>/dev/null ;;
            fifo) as_postgres mkfifo -m 0600 "$state" 2>/dev/null ;;
        esac && return
    done
    echo "spoil $1: the server wrote its file again each time" >&2
    return 1
}
# clear_spoil KIND: what spoil put there removed (read-only: the file made writable again)
clear_spoil() {
    if [ "$1" = read-only ]; then as_postgres chmod 0600 "$state"; else as_postgres rm -rf "$state"; fi
}
# crashes SINCE_LINE: the server log's reports of a backend that crashed, from that line on
crashes() {
    tail -n +"$1" "$log" | grep -E 'terminated by signal|exited with exit code|terminating any other active' | head -n 3
}
# refused DESCRIPTION OUTPUT: the error has the documented SQLSTATE and a hint
refused() {
    check "$1: SQLSTATE $sqlstate" "$(code_of "$2")" "$sqlstate"
    check "$1: with a hint" "$([ -n "$(hint_of "$2")" ] && echo hint)" hint
    [ "$(code_of "$2")" = "$sqlstate" ] && [ -n "$(hint_of "$2")" ] || tap_diag "$(grep -E '^[A-Z]+: ' <<<"$2" | head -n 5)"
}
describe() {
    case $1 in
        directory) echo "a directory" ;;
        link) echo "a symbolic link to a good copy of the file" ;;
        dangling) echo "a dangling symbolic link" ;;
        read-only) echo "a file the server may not write (mode 0400)" ;;
        fifo) echo "a FIFO" ;;
    esac
}

make_keys 1000
for kind in directory link dangling read-only fifo; do
    what=$(describe "$kind")

    # found at the start of a server life
    make_keys 100
    stop
    spoil "$kind"
    since=$(($(log_lines) + 1))
    start
    out=$(attempt "SELECT snowflake_generate()")
    refused "$what, found at start" "$out"
    clear_spoil "$kind"
    [ "$kind" = read-only ] || as_postgres mv "$good" "$state"
    above "... once the server's file is back, generation resumes above every key made before" 0
    check "... no backend crashed" "$(crashes "$since")" ""

    # swapped in while the server generates
    make_keys 100
    since=$(($(log_lines) + 1))
    spoil "$kind"
    out=$(attempt "$until_failure")
    refused "$what, swapped in while running" "$out"
    last=$(last_of "$out")
    clear_spoil "$kind"
    above "... once it is removed (or made writable), generation resumes above every key made before (the last: ${last:-none})" \
        "$last"
    check "... the server writes its file again, 64 bytes" \
        "$(make_keys 1 && as_postgres stat -c '%F %s' "$state" 2>&1)" "regular file 64"
    check "... no backend crashed" "$(crashes "$since")" ""
    as_postgres rm -f "$good"
done
check "no key repeats among the $(q -c "SELECT count(*) FROM made") made" \
    "$(q -c "SELECT count(*) - count(DISTINCT id) FROM made")" 0

# ---- 2. the lock of a life's start
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
check "no assertion of the server failed (its log has no TRAP; a server built with assertions checks LWLock use)" \
    "$(grep -m 3 'TRAP' "$log")" ""

tap_done
