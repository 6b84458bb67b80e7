#!/usr/bin/env bash
# snowflake_generate() under pressure, on a cluster of its own whose CLOCK_REALTIME is slowed tenfold by
# test/snowflake_clock_shim.c (LD_PRELOAD, through a control file the test changes while the server runs), so the
# clients ask each millisecond for more than its 4,096 IDs and the generator must make them wait for the next one:
# an ID is never ahead of the clock. 8 sessions and a parallel query (its IDs made by 2 workers) take 600,000 IDs on
# node 37; while they do, the clock steps back 500 ms (less than the second the generator waits out), and once that is
# waited out a backend's SIGKILL makes the postmaster restart the server (the clock runs at real speed from then: the
# restart waits for the reservation of the life before, up to a second of the clock, which need not be ten real
# seconds). No call may fail and no ID repeat; each process's IDs increase; every ID has the node and a time the
# clock had shown by the end of its statement; the IDs after the step and after the restart are above all those
# before; the first ID of the server is 100 ms past the clock; the reservation file ends past every ID. Also: the
# shim reads as it should, and PostgreSQL's own clock, pg_sleep and statement_timeout keep real time under it.
# The test waits for events (IDs taken, a step waited out), never counts on work fitting into a stretch of real time.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed.
# Prints "ok: ..." or "FAILED: ..." per check.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/cluster.sh
source test/lib/psql_fifo.sh
source test/lib/check.sh
started=$(date +%s%N)

node=37
slowdown=10                 # a millisecond of the shimmed clock lasts 10 real ones: 409,600 IDs a real second at most
step_back_ms=500            # the step back, in shimmed time (5 real seconds to wait out)
batch=5000                  # IDs per statement of a session
sessions=8
session_target=60000        # IDs each session takes
rows=20000                  # IDs per statement of the parallel query (one per row of its table)
parallel_target=6           # statements of the parallel query
step_at=200000              # the first client to see this many IDs taken steps the clock back
crash_at=400000             # once the step is waited out, the first client to see this many kills its backend
epoch_ms=1672531200000      # 2023-01-01 UTC, where the pgEdge layout's time begins
lead_bound=10               # the documented bound of an ID's time over the clock, in ms

work=$CLUSTERS/snowflake-run
mkdir -p "$work/ids" "$work/plans" "$work/state"
source test/lib/clock_shim.sh
now_ns() { date +%s%N; }

port=$(free_port)
cluster_init snowflake
# The shimmed clock starts from the real time here, just before the server does.
clock_change set "$(now_ns)" "$slowdown"
CLUSTER_ENV=("LD_PRELOAD=$shim" "IDCODEC_CLOCK_CONTROL=$control")
cluster_run snowflake "$port" "idcodec.node_id=$node" "restart_after_crash=on"
postmaster=$(head -n 1 "$CLUSTERS/snowflake/postmaster.pid")
q() { cluster_psql "$port" -d postgres "$@"; }

# ---- the clocks: the shim's and the server's own
read -r base shown _ _ <"$work/segments"
before=$(now_ns)
under_shim=$(env LD_PRELOAD="$shim" IDCODEC_CLOCK_CONTROL="$control" date +%s%N)
after=$(now_ns)
expect "the clock shim: date under it reads the time set + elapsed/$slowdown ($(((after - under_shim) / 1000000)) ms" \
      "behind the real clock)" \
    "$([ "$under_shim" -ge $((shown + (before - base) / slowdown)) ] && [ "$under_shim" -le $((shown + (after - base) / slowdown)) ] &&
       echo within || echo "real $before..$after, shown $under_shim")" within

q <<'SQL'
CREATE EXTENSION idcodec;
CREATE TABLE rows AS SELECT g FROM generate_series(1, 20000) g;
ANALYZE rows;
-- The real time in microseconds since 1970, from PostgreSQL's own clock (gettimeofday, which the shim leaves alone).
CREATE FUNCTION real_us() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint $$;
-- the clock's changes and the stretches of real time each may have been read in
CREATE TABLE seg (base bigint, shown bigint, slowdown bigint, done bigint);
CREATE TABLE segs (base bigint, shown bigint, slowdown bigint, until bigint);
-- the greatest and the least millisecond since 2023 the shimmed clock showed between two real times in microseconds
CREATE FUNCTION shim_max_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT max((shown + (least(a_us * 1000 + 999, until) - base) / slowdown) / 1000000) - 1672531200000 FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
CREATE FUNCTION shim_min_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT min((shown + (greatest(b_us * 1000, base) - base) / slowdown) / 1000000) - 1672531200000 FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
SQL
[ "$(q -c "SELECT count(*) FROM rows")" = "$rows" ]
load_segments() {
    q -c "TRUNCATE seg" -c "\\copy seg FROM '$work/segments' DELIMITER ' '" -c "TRUNCATE segs" \
      -c "INSERT INTO segs SELECT base, shown, slowdown, coalesce(lead(done) OVER (ORDER BY base), 9e18::bigint) FROM seg"
}

# The first ID of the server: a new server life starts at least 100 ms past the clock, and waits for it.
IFS='|' read -r before first after <<<"$(q -c "SELECT real_us(), snowflake_generate(), real_us()")"
echo "$first" >"$work/ids/first.1.0"
echo "first 1 0 $before $after" >"$work/statements"
load_segments
expect "the first ID of the server is 100 ms or more past the shimmed clock's reading at the call, and the call" \
      "waited for the clock to get there" \
    "$(q -c "SELECT $first >> 22 BETWEEN shim_min_ms($before, $before) + 100 AND shim_max_ms($before, $after)")" t

# ---- the clients
# taken: the IDs the clients have taken so far
taken() { awk '{ n += $1 } END { print n + 0 }' "$work/progress" 2>/dev/null || echo 0; }
# session NAME KIND TARGET: a client taking IDs, KIND "ids" by statements of $batch, "parallel" by the parallel query
# (a statement per $rows), until it has TARGET. Each statement writes its IDs in the order taken to the file
# ids/NAME.CONNECTION.STATEMENT, and its real start and end (us) to the file statements; a lost connection is made
# again. Every statement done appends its count to the file progress. The first client to see $step_at IDs taken
# steps the clock back (so the others are taking IDs as it does); once the step is waited out, the first client to see $crash_at IDs taken kills its own backend
# with SIGKILL (a client knows at once; a watcher, starved of the CPU by the clients, would be late).
session() {
    local name=$1 kind=$2 target=$3 taken=0 conn=0 statement=0 per line began
    local in=$work/state/$name.in out=$work/state/$name.out w r status backend
    per=$([ "$kind" = ids ] && echo "$batch" || echo "$rows")
    trap '' PIPE  # a write to a psql that died fails instead of killing the session
    mkfifo "$in" "$out"
    while [ "$taken" -lt "$target" ]; do
        # connect, again while the server restarts (until a minute has passed)
        psql_fifo_connect "$port" "sf-$name" "$in" "$out" "$work/state/$name.err" 'SELECT pg_backend_pid();' '^[0-9]+$' ||
            { echo "$name: no connection for a minute" >>"$work/state/$name.err"; return 1; }
        w=$fifo_w r=$fifo_r backend=$fifo_first
        conn=$((conn + 1))
        if [ "$kind" = parallel ]; then
            # every row's ID made in a worker: the leader only gathers
            printf '%s\n' "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;" \
                "SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;" \
                "SET parallel_leader_participation = off;" >&"$w"
        fi
        while [ "$taken" -lt "$target" ]; do
            statement=$((statement + 1))
            local file=$name.$conn.$statement
            began=$EPOCHREALTIME
            if [ "$kind" = ids ]; then
                printf '%s\n' "\\o $work/ids/$file" "SELECT snowflake_generate() FROM generate_series(1, $batch);" \
                    "\\o" >&"$w" 2>/dev/null || true
            else
                # CREATE TABLE AS keeps the IDs in the order the Gather returned them, from the run EXPLAIN shows
                printf '%s\n' "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
                    CREATE TEMP TABLE batch AS SELECT snowflake_generate() AS id FROM rows \\g $work/plans/$file" \
                    "SELECT id FROM batch ORDER BY ctid \\g $work/ids/$file" "DROP TABLE batch;" >&"$w" 2>/dev/null || true
            fi
            printf '\\echo done\n' >&"$w" 2>/dev/null || true
            if ! read -r -t 120 line <&"$r" || [ "$line" != done ]; then
                # the connection was lost (the crash): what the statement wrote out was made between its start and now
                [ -s "$work/ids/$file" ] && echo "$name $conn $statement ${began/./} ${EPOCHREALTIME/./}" >>"$work/statements"
                break
            fi
            echo "$name $conn $statement ${began/./} ${EPOCHREALTIME/./}" >>"$work/statements"
            taken=$((taken + per))
            echo "$per $EPOCHREALTIME $name" >>"$work/progress"
            # (noclobber: only the first client to get there creates the file) the step, by a client so that the
            # others are still taking IDs: a watcher could be too late
            if [ ! -e "$work/state/step" ] && [ "$(taken)" -ge "$step_at" ] && (set -o noclobber; : >"$work/state/step") 2>/dev/null; then
                clock_change step "-$step_back_ms"
                tail -n 1 "$work/segments" >"$work/state/stepped.new"
                mv "$work/state/stepped.new" "$work/state/stepped"
            fi
            # the crash only once the step is waited out (a statement begun after it is done): a crash while the
            # clock is still behind would leave the reservation over a second ahead of it, and the calls would fail
            # until the clock caught up (55000), as they should
            [ -e "$work/state/stepped" ] && [ "${began/./}" -gt "$(cut -d ' ' -f 4 "$work/state/stepped" | cut -c 1-16)" ] &&
                touch "$work/state/waited"
            if [ -e "$work/state/waited" ] && [ ! -e "$work/state/crash" ] && [ "$(taken)" -ge "$crash_at" ] &&
                    (set -o noclobber; echo "$backend $(now_ns)" >"$work/state/crash") 2>/dev/null; then
                kill -KILL "$backend"
            fi
        done
        status=0
        psql_fifo_close || status=$?
        # 2: the connection was lost (the crash); anything else ends the session
        if [ "$taken" -lt "$target" ]; then
            [ $status = 2 ] || { echo "$name: psql ended with status $status" >>"$work/state/$name.err"; return 1; }
            echo "$name $conn $(now_ns)" >>"$work/state/lost"
        fi
    done
}

# wait_for CONDITION SECONDS: until the command CONDITION succeeds; exits when the time is up or a client failed
wait_for() {
    local until=$((SECONDS + $2)) i
    until eval "$1"; do
        for i in "${!clients[@]}"; do
            kill -0 "${clients[$i]}" 2>/dev/null || [ -e "$work/state/finished.${names[$i]}" ] && continue
            echo "FAILED: client ${names[$i]} failed:"; tail -n 20 "$work"/state/*.err | sed 's/^/    /'; exit 1
        done
        [ $SECONDS -lt "$until" ] || { echo "FAILED: waited ${2}s for: $1"; exit 1; }
        sleep 0.02
    done
}

touch "$work/progress"
clients=()
names=()
trap 'for pid in "${clients[@]}"; do kill "$pid" 2>/dev/null || true; done; cluster_stop_all' EXIT
generation_started=$(now_ns)
for i in $(seq "$sessions"); do
    { session "s$i" ids "$session_target" && touch "$work/state/finished.s$i"; } &
    clients+=($!)
    names+=("s$i")
done
{ session par parallel $((parallel_target * rows)) && touch "$work/state/finished.par"; } &
clients+=($!)
names+=(par)

# all finished: every client has taken its IDs
all_finished() { [ "$(find "$work/state" -name 'finished.*' | wc -l)" = ${#names[@]} ]; }
# ---- the step and the crash, made by clients; after the crash the restart waits for the clock to reach the
# reservation of the server life before (up to a second of the clock ahead), so the clock runs at real speed from
# then: ten real seconds are not needed to show it
wait_for '[ -e "$work/state/crash" ] || all_finished' 300
clock_change step 0 1
for pid in "${clients[@]}"; do wait "$pid" || true; done
for name in "${names[@]}"; do
    [ -e "$work/state/finished.$name" ] && continue
    echo "FAILED: client $name failed:"; tail -n 20 "$work"/state/*.err | sed 's/^/    /'; exit 1
done
clients=()
generation_ended=$(now_ns)
[ -f "$work/state/crash" ] || { echo "FAILED: no client killed its backend: the step came too late"; exit 1; }
read -r step_base _ _ step_done <"$work/state/stepped"
read -r victim killed_at <"$work/state/crash"
# the IDs taken before the crash: the statements done before it
killed_taken=$(awk -v at="${killed_at:0:10}.${killed_at:10:6}" '$2 < at { n += $1 } END { print n + 0 }' "$work/progress")
# seconds FROM_NS TO_NS
seconds() { awk -v from="$1" -v to="$2" 'BEGIN { printf "%.3f", (to - from) / 1e9 }'; }
before_step_taken=$(awk -v at="${step_base:0:16}" '$5 < at { n += ($1 == "par" ? '$rows' : ($1 == "first" ? 1 : '$batch')) }
                        END { print n + 0 }' "$work/statements")
timings="$before_step_taken IDs before the step in $(seconds "$generation_started" "$step_base") s (connecting included)"
timings+=", $(($(taken) - before_step_taken)) after it in $(seconds "$step_base" "$generation_ended") s (the wait,"
timings+=" the crash and restart included)"

# ---- the checks
log=$(cluster_log snowflake)
reconnected=$(cut -d ' ' -f 1 "$work/state/lost" 2>/dev/null | sort -u | wc -l)
expect "the SIGKILL of backend $victim made the postmaster (the same process) restart the server; the $reconnected clients" \
    "it cut off connected again$(
    grep -q "(PID $victim) was terminated by signal 9" "$log" || echo ", but the log shows no such crash"
    grep -q 'all server processes terminated; reinitializing' "$log" || echo ", but the log shows no reinitializing"
    [ "$(head -n 1 "$CLUSTERS/snowflake/postmaster.pid")" = "$postmaster" ] || echo ", but the postmaster changed"
    [ "$reconnected" -ge 2 ] || echo ", but too few clients were cut off")" "it cut off connected again"

# every ID once, in a table, as source,connection,statement,position,id
awk -v OFS=, '{ n = split(FILENAME, path, "/"); split(path[n], key, "."); print key[1], key[2], key[3], FNR, $1 }' \
    "$work"/ids/* >"$work/all.csv"
total=$(wc -l <"$work/all.csv")
duplicates=$(cut -d , -f 5 "$work/all.csv" | LC_ALL=C sort -S 100M | uniq -d | wc -l)
expect "no ID taken twice among all $total" "$duplicates" 0
expect "at least $((sessions * session_target + parallel_target * rows)) IDs" \
    "$([ "$total" -ge $((sessions * session_target + parallel_target * rows)) ] && echo yes || echo "$total")" yes

# each process's IDs strictly increasing: each session's connection, its statements in order
unordered=()
for connection in $(ls "$work/ids" | grep -E '^s[0-9]+\.' | cut -d . -f 1,2 | sort -u); do
    for file in $(cd "$work/ids" && ls "$connection".* | sort -t . -k 3 -n); do cat "$work/ids/$file"; done |
        sort -c -n -u 2>/dev/null || unordered+=("$connection")
done
connections=$(ls "$work/ids" | grep -E '^s[0-9]+\.' | cut -d . -f 1,2 | sort -u)
expect "each session's IDs strictly increasing, connection by connection ($(grep -c '\.1$' <<<"$connections") before the" \
      "crash, $(grep -vc '\.1$' <<<"$connections") after)" "${unordered[*]}" ""

# The parallel query: each run launched workers, they took every row's ID (the function is evaluated in the
# Parallel Seq Scan), and the IDs split into no more increasing runs than there were workers (each worker's own
# increase, interleaved by the Gather). The fewest increasing runs: each ID extends the run whose last ID is the
# largest below it (IDs compared as zero-padded strings, exact where numbers in awk are not).
parallel_problems=()
launched_total=0
interleaved=0
runs=0
for plan in "$work"/plans/*; do
    file=$work/ids/${plan##*/}
    [ -f "$file" ] || continue  # the crash took it before its IDs were printed
    runs=$((runs + 1))
    launched=$(grep -oP 'Workers Launched: \K[0-9]+' "$plan" || echo 0)
    worker_rows=$(grep -oP 'Worker [0-9]+: +actual rows=\K[0-9.]+' "$plan" | awk '{ n += $1 } END { print n + 0 }')
    chains=$(awk '{ x = "k" substr("0000000000000000000000", length($1) + 1) $1; best = 0
                    for (i = 1; i <= n; i++) if (top[i] < x && (best == 0 || top[i] > top[best])) best = i
                    if (best == 0) top[++n] = x; else top[best] = x }
                  END { print n + 0 }' "$file")
    launched_total=$((launched_total + launched))
    [ "$chains" -ge 2 ] && interleaved=$((interleaved + 1))
    grep -A 1 'Parallel Seq Scan on public.rows' "$plan" | grep -q 'Output: snowflake_generate()' ||
        parallel_problems+=("${plan##*/}: not evaluated in the scan")
    [ "$launched" -ge 1 ] && [ "$worker_rows" = "$rows" ] && [ "$chains" -le "$launched" ] ||
        parallel_problems+=("${plan##*/}: $launched workers, $worker_rows rows by them, $chains increasing runs")
done
expect "the parallel query: $runs runs, $launched_total workers launched, every ID made by a worker; each run's IDs" \
      "are at most as many increasing runs as workers (interleaved in $interleaved)" \
    "${parallel_problems[*]}$([ "$runs" -ge "$parallel_target" ] || echo "only $runs runs")" ""

load_segments
q <<SQL
CREATE TABLE taken (source text, conn int, statement int, position int, id bigint);
\copy taken FROM '$work/all.csv' CSV
CREATE TABLE statements (source text, conn int, statement int, began bigint, ended bigint);
\copy statements FROM '$work/statements' DELIMITER ' '
ALTER TABLE taken ADD COLUMN began bigint, ADD COLUMN ended bigint;
UPDATE taken t SET began = s.began, ended = s.ended FROM statements s
WHERE (s.source, s.conn, s.statement) = (t.source, t.conn, t.statement);
ANALYZE taken;
CREATE TABLE ms AS SELECT DISTINCT began, ended, shim_max_ms(began, ended) AS shown FROM statements;
SQL
# every ID non-negative, of the node, not before the clock's start, and its millisecond one the clock had shown by
# the end of its statement (the lead: how far past it)
low=$(q -c "SELECT shim_min_ms(${base:0:-3}, ${base:0:-3})")
IFS='|' read -r negative other_node too_early untimed lead <<<"$(q -c "
    SELECT count(*) FILTER (WHERE id < 0), count(*) FILTER (WHERE (id >> 12) & 1023 <> $node),
           count(*) FILTER (WHERE id >> 22 < $low), count(*) FILTER (WHERE t.began IS NULL), max((id >> 22) - shown)
    FROM taken t LEFT JOIN ms USING (began, ended)")"
expect "every ID non-negative, of node $node, not before the clock's start; none ahead of the clock by more than" \
      "$lead_bound ms at the end of its statement (the greatest lead: $lead ms)" \
    "$negative $other_node $too_early $untimed $([ "${lead:-0}" -le $lead_bound ] && echo within)" "0 0 0 0 within"

# the counter overflowed: milliseconds with all 4096 IDs, and none with more (there cannot be, without a repeat)
IFS='|' read -r max_per_ms full_ms all_ms full_before_step <<<"$(q -c "
    SELECT max(n), count(*) FILTER (WHERE n = 4096), count(*), count(*) FILTER (WHERE n = 4096 AND before_step)
    FROM (SELECT count(*) AS n, bool_and(ended * 1000 < $step_base) AS before_step FROM taken GROUP BY id >> 22) ms")"
expect "the clients asked for more than the clock allows: $full_ms of the $all_ms milliseconds hold all 4096 IDs" \
      "($full_before_step before the step), none more" "$max_per_ms" 4096

# the step: statements ran across it, waiting for the clock; every ID of a statement begun after it is above every
# ID of one that ended before it
IFS='|' read -r across max_before min_after after_step <<<"$(q -c "
    SELECT (SELECT count(*) FROM statements WHERE began * 1000 < $step_base AND ended * 1000 > $step_done),
           max(id) FILTER (WHERE ended * 1000 < $step_base), min(id) FILTER (WHERE began * 1000 > $step_done),
           count(*) FILTER (WHERE began * 1000 > $step_done)
    FROM taken")"
expect "the clock's step back by $step_back_ms ms came under load ($across statements ran across it) and was waited out:" \
      "the $after_step IDs after it are above the $before_step_taken before it" \
    "$([ "$across" -ge 1 ] && echo under load) $([ "$min_after" -gt "$max_before" ] && echo above || echo "$min_after <= $max_before")" \
    "under load above"

# the crash: every ID of a connection made after it above every ID before it
IFS='|' read -r max_before min_after <<<"$(q -c "
    SELECT max(id) FILTER (WHERE conn = 1 AND source <> 'first'), min(id) FILTER (WHERE conn > 1) FROM taken")"
expect "every ID after the crash above every ID before it ($killed_taken IDs before)" \
    "$([ "$min_after" -gt "$max_before" ] && echo above || echo "$min_after <= $max_before")" above

# the reservation file: a new server life will start past every ID made
reservation=$(head -c 64 "$CLUSTERS/snowflake/idcodec_snowflake" | head -n 1 | tr -d '\n' | tr -c '[:print:]' '?')
expect "the reservation file idcodec_snowflake (\"$reservation\") is past the greatest ID" \
    "$([[ $reservation =~ ^idcodec\ snowflake\ v2\ ([0-9]+)$ ]] &&
       q -c "SELECT ((max(id) >> 22) + $epoch_ms < ${BASH_REMATCH[1]})::text FROM taken")" true

# PostgreSQL's own clocks keep real time: the shim changes only what reads CLOCK_REALTIME
before=$(($(now_ns) / 1000))
server_us=$(q -c "SELECT real_us()")
after=$(($(now_ns) / 1000))
expect "PostgreSQL's own clock is not slowed: clock_timestamp() is the real time" \
    "$([ "$server_us" -ge "$before" ] && [ "$server_us" -le "$after" ] && echo real || echo "$server_us not in $before..$after")" real
before=$(now_ns)
q -c "SELECT pg_sleep(0.5)" >/dev/null
slept=$((($(now_ns) - before) / 1000000))
expect "pg_sleep(0.5) lasts half a real second (${slept} ms)" "$([ "$slept" -ge 500 ] && [ "$slept" -lt 3000 ] && echo yes)" yes
before=$(now_ns)
timeout_error=$(q -c "SET statement_timeout = '300ms'" -c "SELECT pg_sleep(10)" 2>&1 || true)
waited=$((($(now_ns) - before) / 1000000))
expect "statement_timeout = 300ms stops pg_sleep(10) after 300 real ms (${waited} ms)" \
    "$([ "$waited" -ge 300 ] && [ "$waited" -lt 3000 ] && echo "$timeout_error")" \
    "ERROR:  canceling statement due to statement timeout"
per_source=$(q -c "SELECT string_agg(source || ' ' || n, ', ' ORDER BY source)
                   FROM (SELECT source, count(*) AS n FROM taken GROUP BY source) s")
echo "snowflake_generate() under pressure on PostgreSQL $(q -c "SHOW server_version"): $total IDs ($per_source);" \
     "$timings; at most $max_per_ms per millisecond; $((($(now_ns) - started) / 1000000000)) s in all;" \
     "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
