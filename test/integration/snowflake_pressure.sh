#!/usr/bin/env bash
# snowflake_generate() under pressure, on a cluster of its own whose CLOCK_REALTIME is slowed twentyfold by
# test/snowflake_clock_shim.c (LD_PRELOAD), so each millisecond is asked for far more than its 4096 IDs and the
# generator must borrow from the following ones. 8 sessions and a parallel query (its IDs made by 2 workers) take over
# 1,000,000 IDs on node 37; meanwhile the clock steps back 2 s, and later a backend's SIGKILL makes the postmaster
# restart the server. No ID may repeat; each process's IDs increase; every ID has the node and a time the clock allows;
# the IDs after the step and after the restart are above all those before. Also: the shim reads as it should, and
# PostgreSQL's own clock, pg_sleep and statement_timeout keep real time under it.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed.
# Prints "ok: ..." or "FAILED: ..." per check.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/cluster.sh
source test/lib/check.sh
# expect DESCRIPTION... ACTUAL EXPECTED: check, the description given in as many words as the lines need
expect() { check "${*:1:$#-2}" "${@:$#-1:1}" "${@:$#}"; }
started=$(date +%s%N)

node=37
slowdown=20                 # a millisecond of the shimmed clock lasts 20 real ones
step_back_ms=2000           # the step back, in shimmed time
step_delay_s=10             # the step comes this long (real) after the server starts: slack for a loaded machine
batch=5000                  # IDs per statement of a session
sessions=8
session_target=110000       # IDs each session takes in all ...
session_before_step=30000   # ... of which at most this many before the step
rows=20000                  # IDs per statement of the parallel query (one per row of its table)
parallel_target=7           # statements of the parallel query in all ...
parallel_before_step=3      # ... and before the step
crash_at=500000             # the first session to see this many IDs taken kills its backend
epoch_ms=1672531200000      # 2023-01-01 UTC, where the pgEdge layout's time begins

work=$CLUSTERS/snowflake-run
mkdir -p "$work/ids" "$work/plans" "$work/state"
shim=$CLUSTERS/snowflake_clock_shim.so
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$shim" test/snowflake_clock_shim.c -ldl
chmod 755 "$shim"

port=$(free_port)
cluster_init snowflake
# The shimmed clock starts from the real time here, just before the server does.
origin=$(date +%s%N)
step_at=$((origin + step_delay_s * 1000000000))
clock_env=(IDCODEC_CLOCK_ORIGIN_NS=$origin IDCODEC_CLOCK_SLOWDOWN=$slowdown IDCODEC_CLOCK_STEP_AT_NS=$step_at
           IDCODEC_CLOCK_STEP_BACK_MS=$step_back_ms)
CLUSTER_ENV=(LD_PRELOAD=$shim "${clock_env[@]}")
cluster_run snowflake "$port" "idcodec.node_id=$node" "restart_after_crash=on"
postmaster=$(head -n 1 "$CLUSTERS/snowflake/postmaster.pid")
q() { cluster_psql "$port" -d postgres "$@"; }
now_ns() { date +%s%N; }
# shimmed REAL_NS: what the shim's clock reads at that real time
shimmed() {
    local shown=$((origin + ($1 - origin) / slowdown))
    [ "$1" -lt "$step_at" ] || shown=$((shown - step_back_ms * 1000000))
    echo "$shown"
}

# ---- the clocks: the shim's and the server's own
before=$(now_ns)
shown=$(env LD_PRELOAD="$shim" "${clock_env[@]}" date +%s%N)
stepped=$(env LD_PRELOAD="$shim" "${clock_env[@]/#IDCODEC_CLOCK_STEP_AT_NS=*/IDCODEC_CLOCK_STEP_AT_NS=0}" date +%s%N)
after=$(now_ns)
expect "the clock shim: date under it reads the start + elapsed/$slowdown ($(((after - shown) / 1000000)) ms behind the" \
      "real clock), $step_back_ms ms less once the step is due" \
    "$([ "$shown" -ge "$(shimmed "$before")" ] && [ "$shown" -le "$(shimmed "$after")" ] &&
       [ "$stepped" -ge $(($(shimmed "$before") - step_back_ms * 1000000)) ] &&
       [ "$stepped" -le $(($(shimmed "$after") - step_back_ms * 1000000)) ] && echo within ||
       echo "real $before..$after, shown $shown, stepped $stepped")" within

q <<SQL
CREATE EXTENSION idcodec;
CREATE TABLE rows AS SELECT g FROM generate_series(1, $rows) g;
ANALYZE rows;
-- The real time in microseconds since 1970, from PostgreSQL's own clock (gettimeofday, which the shim leaves alone).
CREATE FUNCTION real_us() RETURNS bigint LANGUAGE sql VOLATILE AS
\$\$ SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint \$\$;
-- IDs one at a time, 10 ms apart, until the real time 'until', each between two readings of the real clock.
CREATE FUNCTION probe(until timestamptz) RETURNS TABLE (before_us bigint, id bigint, after_us bigint)
LANGUAGE plpgsql AS \$\$
BEGIN
    WHILE clock_timestamp() < until LOOP
        before_us := real_us();
        id := snowflake_generate();
        after_us := real_us();
        RETURN NEXT;
        PERFORM pg_sleep(0.01);
    END LOOP;
END
\$\$;
-- The millisecond since the layout's epoch that the shimmed clock reads at a real time.
CREATE FUNCTION shim_ms(real_ns bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS \$\$
    SELECT ($origin + (real_ns - $origin) / $slowdown
            - CASE WHEN real_ns >= $step_at THEN $step_back_ms * 1000000 ELSE 0 END) / 1000000 - $epoch_ms \$\$;
SQL

# The first ID of the server: the state is new, so it has the time the shimmed clock reads.
IFS='|' read -r before first after <<<"$(q -c "SELECT real_us(), snowflake_generate(), real_us()")"
echo "$first" >"$work/ids/first.1.a.0"
expect "snowflake_generate() reads the shimmed clock: the first ID's millisecond is the shimmed one" \
    "$(q -c "SELECT $first >> 22 BETWEEN shim_ms($before * 1000) AND shim_ms(($after + 1) * 1000 - 1)")" t

# ---- the clients
# taken: the IDs the clients have taken so far
taken() { awk '{ n += $1 } END { print n + 0 }' "$work/progress" 2>/dev/null || echo 0; }
# session NAME KIND TARGET BEFORE_STEP: a client taking IDs, KIND "ids" by statements of $batch, "parallel" by the
# parallel query (a statement per $rows), until it has TARGET, of which BEFORE_STEP at most before the step. Each
# connection writes the IDs in the order taken to files ids/NAME.CONNECTION.PHASE.STATEMENT (a for before the step, b
# after; a session's statements share a file); a lost connection is made again, into new files.
# Every statement done appends its count to the file progress. The first client to see $crash_at IDs taken kills its
# own backend with SIGKILL (a client knows at once; a watcher, starved of the CPU by the clients, would be late).
session() {
    local name=$1 kind=$2 target=$3 before_step=$4 taken=0 taken_before=0 phase=a conn=0 statement=0 per line
    local in=$work/state/$name.in out=$work/state/$name.out pid w r status backend
    per=$([ "$kind" = ids ] && echo "$batch" || echo "$rows")
    trap '' PIPE  # a write to a psql that died fails instead of killing the session
    mkfifo "$in" "$out"
    while [ "$taken" -lt "$target" ]; do
        # connect, again while the server restarts (until a minute has passed)
        local tries=0
        while :; do
            psql -X -q -At -v ON_ERROR_STOP=1 \
                "host=localhost port=$port user=postgres dbname=postgres application_name=sf-$name" \
                <"$in" >"$out" 2>>"$work/state/$name.err" &
            pid=$!
            exec {w}>"$in" {r}<"$out"
            printf 'SELECT pg_backend_pid();\n' >&"$w" 2>/dev/null || true
            if read -r -t 30 backend <&"$r" && [[ $backend =~ ^[0-9]+$ ]]; then break; fi
            exec {w}>&- {r}<&-
            wait "$pid" || true
            tries=$((tries + 1))
            [ $tries -lt 600 ] || { echo "$name: no connection for a minute" >>"$work/state/$name.err"; return 1; }
            sleep 0.1
        done
        conn=$((conn + 1))
        if [ "$kind" = ids ]; then
            printf '\\o %s\n' "$work/ids/$name.$conn.$phase.0" >&"$w"
        else
            # every row's ID made in a worker: the leader only gathers
            printf '%s\n' "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;" \
                "SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;" \
                "SET parallel_leader_participation = off;" >&"$w"
        fi
        while [ "$taken" -lt "$target" ]; do
            if [ $phase = a ] && { [ "$taken_before" -ge "$before_step" ] || [ -e "$work/state/pause" ]; }; then
                touch "$work/state/paused.$name"
                while [ ! -e "$work/state/go" ]; do sleep 0.02; done
                phase=b
                [ "$kind" = parallel ] || printf '\\o %s\n' "$work/ids/$name.$conn.$phase.0" >&"$w"
            fi
            statement=$((statement + 1))
            if [ "$kind" = ids ]; then
                printf 'SELECT snowflake_generate() FROM generate_series(1, %d);\n' "$batch" >&"$w" 2>/dev/null || true
            else
                # CREATE TABLE AS keeps the IDs in the order the Gather returned them, from the run EXPLAIN shows
                local file=$name.$conn.$phase.$statement
                printf '%s\n' "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
                    CREATE TEMP TABLE batch AS SELECT snowflake_generate() AS id FROM rows \\g $work/plans/$file" \
                    "SELECT id FROM batch ORDER BY ctid \\g $work/ids/$file" "DROP TABLE batch;" >&"$w" 2>/dev/null || true
            fi
            printf '\\echo done\n' >&"$w" 2>/dev/null || true
            if ! read -r -t 120 line <&"$r" || [ "$line" != done ]; then
                break
            fi
            taken=$((taken + per))
            [ $phase = b ] || taken_before=$((taken_before + per))
            echo "$per $EPOCHREALTIME $name $phase" >>"$work/progress"
            # (noclobber: only the first client to get there creates the file)
            if [ ! -e "$work/state/crash" ] && [ "$(taken)" -ge "$crash_at" ] &&
                    (set -o noclobber; echo "$backend $(now_ns)" >"$work/state/crash") 2>/dev/null; then
                kill -KILL "$backend"
            fi
        done
        exec {w}>&-
        status=0
        wait "$pid" || status=$?
        exec {r}<&-
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
all_paused() { [ "$(find "$work/state" -name 'paused.*' | wc -l)" = ${#names[@]} ]; }

touch "$work/progress"
clients=()
names=()
trap 'for pid in "${clients[@]}"; do kill "$pid" 2>/dev/null || true; done; cluster_stop_all' EXIT
generation_started=$(now_ns)
for i in $(seq "$sessions"); do
    { session "s$i" ids "$session_target" "$session_before_step" && touch "$work/state/finished.s$i"; } &
    clients+=($!)
    names+=("s$i")
done
{ session par parallel $((parallel_target * rows)) $((parallel_before_step * rows)) && touch "$work/state/finished.par"; } &
clients+=($!)
names+=(par)

# ---- before the step: every client takes its share, or stops 5 s before the step; either way the clock passes the IDs
# taken by then before the probe's last half second before the step
deadline=$((step_at - 5000000000))
wait_for 'all_paused || [ "$(now_ns)" -ge "$deadline" ]' 60
touch "$work/state/pause"
wait_for all_paused 60
before_step_taken=$(taken)
# The probe alone across the step: before it, its IDs should follow the clock; after it, go on from the last ticket.
expect "the clients paused for the step a second or more before it" \
    "$([ "$(now_ns)" -lt $((step_at - 1000000000)) ] && echo yes || echo "only $(((step_at - $(now_ns)) / 1000000)) ms before")" yes
q -c "SELECT * FROM probe(to_timestamp($step_at::numeric / 1e9 + 0.5))" >"$work/probe"
awk -F '|' -v step_us=$((step_at / 1000)) -v a="$work/ids/probe.1.a.0" -v b="$work/ids/probe.1.b.0" \
    '{ print $2 > ($1 >= step_us ? b : a) }' "$work/probe"
go_at=$(now_ns)
touch "$work/state/go"

# ---- after the step: the crash, by a client, then the rest
for pid in "${clients[@]}"; do wait "$pid" || true; done
for name in "${names[@]}"; do
    [ -e "$work/state/finished.$name" ] && continue
    echo "FAILED: client $name failed:"; tail -n 20 "$work"/state/*.err | sed 's/^/    /'; exit 1
done
clients=()
generation_ended=$(now_ns)
[ -f "$work/state/crash" ] || { echo "FAILED: no client killed its backend: fewer than $crash_at IDs were taken"; exit 1; }
read -r victim killed_at <"$work/state/crash"
# the IDs taken before the crash: the statements done before it
killed_taken=$(awk -v at="${killed_at:0:10}.${killed_at:10:6}" '$2 < at { n += $1 } END { print n + 0 }' "$work/progress")
# seconds FROM_NS TO: the seconds between, TO in ns or in s.us as in the progress file
seconds() { awk -v from="$1" -v to="$2" 'BEGIN { if (to !~ /\./) to /= 1e9; printf "%.3f", to - from / 1e9 }'; }
last_before_step=$(awk '$4 == "a" && $2 > t { t = $2 } END { print t }' "$work/progress")
timings="before the step $before_step_taken IDs in $(seconds "$generation_started" "$last_before_step") s (connecting"
timings+=" included), after it $(($(taken) - before_step_taken)) in $(seconds "$go_at" "$generation_ended") s (the crash"
timings+=" and restart included), $(seconds "$generation_started" "$generation_ended") s from the first connection"

# ---- the checks
log=$(cluster_log snowflake)
reconnected=$(cut -d ' ' -f 1 "$work/state/lost" 2>/dev/null | sort -u | wc -l)
expect "the SIGKILL of backend $victim made the postmaster (the same process) restart the server; the $reconnected clients" \
    "it cut off connected again$(
    grep -q "(PID $victim) was terminated by signal 9" "$log" || echo ", but the log shows no such crash"
    grep -q 'all server processes terminated; reinitializing' "$log" || echo ", but the log shows no reinitializing"
    [ "$(head -n 1 "$CLUSTERS/snowflake/postmaster.pid")" = "$postmaster" ] || echo ", but the postmaster changed"
    [ "$reconnected" -ge 2 ] || echo ", but too few clients were cut off")" "it cut off connected again"

# every ID once, in a table, as source,connection,phase,statement,position,id
awk -v OFS=, '{ n = split(FILENAME, path, "/"); split(path[n], key, "."); print key[1], key[2], key[3], key[4], FNR, $1 }' \
    "$work"/ids/* >"$work/all.csv"
total=$(wc -l <"$work/all.csv")
duplicates=$(cut -d , -f 6 "$work/all.csv" | LC_ALL=C sort -S 100M | uniq -d | wc -l)
expect "no ID taken twice among all $total" "$duplicates" 0
expect "at least 1,000,000 IDs" "$([ "$total" -ge 1000000 ] && echo yes || echo "$total")" yes

# each process's IDs strictly increasing: each session's connection (its statements in order), the probe
unordered=()
for connection in $(ls "$work/ids" | grep -E '^(s[0-9]+|probe)\.' | cut -d . -f 1,2 | sort -u); do
    # the phases' files in order, a then b
    cat "$work/ids/$connection".*.0 | sort -c -n -u 2>/dev/null || unordered+=("$connection")
done
connections=$(ls "$work/ids" | grep -E '^s[0-9]+\.' | cut -d . -f 1,2 | sort -u)
expect "each session's IDs strictly increasing, connection by connection ($(grep -c '\.1$' <<<"$connections") before the" \
      "crash, $(grep -vc '\.1$' <<<"$connections") after), and the probe's" "${unordered[*]}" ""

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

q <<SQL
CREATE TABLE taken (source text, conn int, phase text, statement int, position int, id bigint);
\copy taken FROM '$work/all.csv' CSV
CREATE TABLE probed (before_us bigint, id bigint, after_us bigint);
\copy probed FROM '$work/probe' DELIMITER '|'
ALTER TABLE probed ADD COLUMN n serial;
ANALYZE taken;
SQL
# every ID non-negative, of the node, with a time between the clock's start and the latest time the clock read, plus
# the milliseconds all IDs taken (those lost in the crash too) can have borrowed
lost_bound=$((sessions * batch + rows))
low=$(q -c "SELECT shim_ms($origin)")
high=$(q -c "SELECT greatest(shim_ms($step_at - 1), shim_ms($generation_ended)) + ($total + $lost_bound + 4095) / 4096")
expect "every ID non-negative, of node $node, its time from the clock's start to the latest time the clock read plus" \
      "what the IDs can borrow ($low..$high ms since 2023)" \
    "$(q -c "SELECT count(*) FILTER (WHERE id < 0) || ' negative, ' || count(*) FILTER (WHERE (id >> 12) & 1023 <> $node)
             || ' of another node, ' || count(*) FILTER (WHERE id >> 22 NOT BETWEEN $low AND $high) || ' out of time'
             FROM taken")" "0 negative, 0 of another node, 0 out of time"

# the counter overflowed: milliseconds with all 4096 IDs, before the step too (from the clients' speed alone)
IFS='|' read -r max_per_ms full_ms all_ms full_before_step <<<"$(q -c "
    SELECT max(n), count(*) FILTER (WHERE n = 4096), count(*), count(*) FILTER (WHERE n = 4096 AND before_step)
    FROM (SELECT count(*) AS n, bool_and(phase = 'a') AS before_step FROM taken GROUP BY id >> 22) ms")"
expect "the counter overflowed and borrowed: $full_ms of the $all_ms milliseconds hold all 4096 IDs ($full_before_step" \
      "before the step)" "$max_per_ms $([ "$full_before_step" -gt 0 ] && echo yes)" "4096 yes"

# the step: just before it the probe's IDs have the clock's time; after it the clock reads about 2 s less, and the
# probe's IDs go on from the last ticket, one by one (no one else takes IDs then); everything after it is above
# everything before it
IFS='|' read -r followed recent consecutive after_step min_ahead <<<"$(q -c "
    WITH p AS (SELECT *, (id >> 22 << 12) | (id & 4095) AS ticket, lag((id >> 22 << 12) | (id & 4095)) OVER (ORDER BY n) AS previous
               FROM probed)
    SELECT count(*) FILTER (WHERE (after_us + 1) * 1000 <= $step_at AND before_us * 1000 >= $step_at - 500000000
                              AND id >> 22 BETWEEN shim_ms(before_us * 1000) AND shim_ms((after_us + 1) * 1000 - 1)),
           count(*) FILTER (WHERE (after_us + 1) * 1000 <= $step_at AND before_us * 1000 >= $step_at - 500000000),
           count(*) FILTER (WHERE before_us * 1000 >= $step_at AND ticket = previous + 1),
           count(*) FILTER (WHERE before_us * 1000 >= $step_at),
           min((id >> 22) - shim_ms((after_us + 1) * 1000)) FILTER (WHERE before_us * 1000 >= $step_at)
    FROM p")"
expect "the clock's step back: in the last half second before it the probe's $recent IDs had the clock's millisecond;" \
      "after it its $after_step IDs went on from the last ticket, ${min_ahead:-?} ms and more ahead of the clock" \
    "$followed $consecutive $([ "${min_ahead:-0}" -gt 0 ] && [ "$recent" -ge 10 ] && [ "$after_step" -ge 10 ] && echo ahead)" \
    "$recent $after_step ahead"
IFS='|' read -r max_before min_after <<<"$(q -c "
    SELECT max(id) FILTER (WHERE phase = 'a'), min(id) FILTER (WHERE phase = 'b') FROM taken")"
expect "every ID after the step above every ID before it ($before_step_taken IDs before)" \
    "$([ "$min_after" -gt "$max_before" ] && echo above || echo "$min_after <= $max_before")" above

# the crash: every ID of a connection made after it above every ID before it; at the crash the IDs were ahead of the
# clock (borrowed), so IDs from the clock alone would have gone back
IFS='|' read -r max_before min_after ahead <<<"$(q -c "
    SELECT max(id) FILTER (WHERE conn = 1), min(id) FILTER (WHERE conn > 1),
           max(id >> 22) FILTER (WHERE conn = 1) - shim_ms($killed_at) FROM taken")"
expect "every ID after the crash above every ID before it ($killed_taken IDs before; they were $ahead ms ahead of the" \
      "clock)" "$([ "$min_after" -gt "$max_before" ] && echo above || echo "$min_after <= $max_before")$(
    [ "$ahead" -gt 0 ] || echo ", but not ahead")" above

# the state file's word is the ticket of the last ID
word=$(od -An -t u8 -N 8 "$CLUSTERS/snowflake/idcodec_snowflake" | tr -d ' ')
expect "the state file idcodec_snowflake holds the ticket of the greatest ID" \
    "$(q -c "SELECT (max(id) >> 22 << 12) | (max(id) & 4095) FROM taken")" "$word"

# PostgreSQL's own clocks keep real time: the shim slows only what the generator reads
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
