# Sourced by the SQL-level checks that measure a backend while it works; uses PGHOST/PGPORT/PGUSER/PGDATABASE.
#
#   probe_run OUTPUT SQL   runs SQL in a backend of its own, its output into OUTPUT (its messages into $PROBE_MESSAGES),
#                          while sampling the backend every 5 ms: the wall clock, its time on a CPU
#                          (/proc/PID/schedstat) and its private memory (RssAnon: shared buffers excluded). The
#                          samples go to $PROBE_SAMPLES, one "WALL_US CPU_NS RSS_KB" line each; the first is taken
#                          before SQL is sent.
#   peak_private_mb OUTPUT SQL
#                          probe_run, then how many MB the private memory peaked above its first sample
#   cpu_ms_between FROM_US TO_US
#                          milliseconds the backend spent on a CPU from the last sample at or before FROM_US (wall
#                          clock, microseconds since the epoch) to the first at or after TO_US: at least the true
#                          time, by at most two sampling periods of work
#   cancel_ms SQL          "WALL CPU": milliseconds between statement_timeout (300 ms) and the end of SQL, a PL/pgSQL
#                          statement that must outlast it, on the wall clock and on the backend's CPU; "-1 -1" when
#                          SQL ended before the timeout
#
# CPU time, not wall time, says how much work a backend did in a stretch: on a busy machine the wall clock also counts
# the time other processes had the cores. The session is started and found before SQL is sent (the checks wait
# for that, not for a fixed pause).
source "$(dirname "${BASH_SOURCE[0]}")/psql_fifo.sh"

probe_run() {
    local output=$1 sql=$2 dir pid sampler line
    dir=$(mktemp -d)
    PROBE_SAMPLES=$dir/samples
    PROBE_MESSAGES=$dir/messages
    mkfifo "$dir/in" "$dir/out" "$dir/tick"
    psql_fifo_connect "$PGPORT" idcodec_probe "$dir/in" "$dir/out" "$PROBE_MESSAGES" "SELECT pg_backend_pid();" \
        '^[0-9]+$' || { echo "probe_run: no session" >&2; return 1; }
    pid=$fifo_first
    # (builtins only, so sampling costs the machine little; reading an idle FIFO with a timeout is the pause)
    (
        exec {tick}<>"$dir/tick"
        while [ ! -e "$dir/done" ] && [ -e "/proc/$pid" ]; do
            rss=0
            read -r cpu _ <"/proc/$pid/schedstat" 2>/dev/null || break
            while read -r key value _; do [ "$key" = RssAnon: ] && { rss=$value; break; }; done <"/proc/$pid/status"
            echo "${EPOCHREALTIME/./} $cpu $rss"
            [ -e "$PROBE_SAMPLES.first" ] || : >"$PROBE_SAMPLES.first"
            read -r -t 0.005 -u "$tick" _ || true
        done
    ) >"$PROBE_SAMPLES" 2>/dev/null &
    sampler=$!
    while [ ! -e "$PROBE_SAMPLES.first" ]; do read -r -t 0.005 _ <> "$dir/tick" || true; done
    # (a lone ";" ends SQL should it lack one, and is nothing otherwise)
    printf '%s\n;\n\\echo idcodec-probe-done\n' "$sql" >&"$fifo_w"
    : >"$output"
    while read -r line <&"$fifo_r"; do
        [ "$line" = idcodec-probe-done ] && break
        printf '%s\n' "$line" >>"$output"
    done
    : >"$dir/done"
    wait "$sampler" || true
    psql_fifo_close || true
}

peak_private_mb() {
    probe_run "$1" "$2" || return 1
    awk 'NR == 1 { first = $3 } $3 > peak { peak = $3 } END { print int((peak - first) / 1024) }' "$PROBE_SAMPLES"
}

cpu_ms_between() {
    awk -v from="$1" -v to="$2" '
        $1 <= from { start = $2 }
        $1 >= to && end == "" { end = $2 }
        { last = $2 }
        END { if (end == "") end = last; printf "%d\n", (end - start) / 1000000 }' "$PROBE_SAMPLES"
}

cancel_ms() {
    local out window
    out=$(mktemp)
    probe_run "$out" "SET statement_timeout = '300ms';
DO \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
    BEGIN
        $1;
        RAISE NOTICE 'window -1 -1';
    EXCEPTION WHEN query_canceled THEN
        RAISE NOTICE 'window % %', (extract(epoch FROM t0) * 1000000)::bigint,
            (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    END;
END \$\$;"
    window=$(grep -oE 'window -?[0-9]+ -?[0-9]+' "$PROBE_MESSAGES" | tail -n 1)
    rm -f "$out"
    read -r _ t0 end <<<"$window"
    if [ -z "$t0" ] || [ "$t0" = -1 ]; then echo "-1 -1"; return; fi
    # (the block's clock starts a little after the statement's timeout does)
    local wall=$(( (end - t0) / 1000 - 300 ))
    echo "$((wall > 0 ? wall : 0)) $(cpu_ms_between "$((t0 + 300000))" "$end")"
}
