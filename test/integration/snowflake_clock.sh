#!/usr/bin/env bash
# snowflake_generate() when the clock misbehaves and when its reservation file is tampered with, on a cluster of its
# own (node 42) whose CLOCK_REALTIME the test steps while the server runs (test/snowflake_clock_shim.c, LD_PRELOAD,
# through a control file; PostgreSQL's own clocks keep real time). The generator must never hand out an ID ahead of
# the clock, nor one twice:
#   1. the clock steps back 5 ms, three times, under 4 generating sessions: the calls wait for it (no ID is ahead of
#      the clock its call read), nothing fails, nothing repeats;
#   2. it steps back 2 s: calls fail with 55000 naming the gap instead of borrowing 2 s from the future, and once the
#      clock has come back to the last ID generation resumes above it;
#   3. it runs an hour ahead (IDs are made) and steps back 1 hour to the right time: 55000 with the gap, also after a
#      restart (the reservation file remembers the IDs made); the documented recovery (stop, remove
#      idcodec_snowflake, start) restarts the IDs from the clock, above those made before the hour ahead;
#   4. it jumps to 1.5 s before the layout's end (2092-09-06 15:47:35.551 UTC, the last of the 41 bits of
#      milliseconds since 2023): IDs of 2092 until the end, then 22008 ("spent"); back at the real time, 55000 with
#      the gap (never "spent", no 2092 ID), also after a restart; the recovery works;
#   5. the reservation file is removed, replaced by an older copy (by a rename and by cp over it) and truncated while
#      4 sessions generate (2 on one connection each, 2 reconnecting for every batch): no ID repeats, generation never
#      stops for long, the file is back (64 bytes, "idcodec snowflake v2 <ms>") soon after each and always promises
#      more than the IDs made before it was read, and no backend crashes (1.6.0 kept its live state in that file,
#      mapped: there a removal or a replacement splits the state and truncation kills with SIGBUS).
# The server restarts between scenarios, so each begins a server life of its own. Every ID made is kept, with the real
# times before and after its call, and checked against what the stepped clock showed in between.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed.
# Prints "ok: ..." or "FAILED: ..." per check.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/cluster.sh
source test/lib/check.sh
started=$SECONDS

node=42
epoch_ms=1672531200000                  # 2023-01-01 UTC, where the pgEdge layout's time begins
end_ms=$((epoch_ms + (1 << 41)))        # the first millisecond past its 41 bits: 2092-09-06 15:47:35.552 UTC
lead_bound=10                           # the documented bound of an ID's time over the clock, in ms

work=$CLUSTERS/clock-run
mkdir -p "$work"
source test/lib/clock_shim.sh
# clock_command ARG...: the same as a command line, for psql's \!
clock_command() { printf '%q ' "$tool" "$control" "$@"; printf '>>%q' "$work/segments"; }
clock_change set "$(date +%s%N)" 1
CLUSTER_ENV=("LD_PRELOAD=$shim" "IDCODEC_CLOCK_CONTROL=$control")

port=$(free_port)
data=$CLUSTERS/snowflake
state=$data/idcodec_snowflake
cluster_init snowflake
start() { cluster_run snowflake "$port" "idcodec.node_id=$node"; }
start
q() { cluster_psql "$port" -d postgres "$@"; }
now_us() { echo $(($(date +%s%N) / 1000)); }
restart() { cluster_stop snowflake && start; }
# the documented recovery from a clock that ran far ahead
recover() { cluster_stop snowflake && as_postgres rm -f "$state" && start; }
# await DESCRIPTION SECONDS CONDITION: until the command CONDITION succeeds; a failed check when the time is up
await() {
    local until=$((SECONDS + $2))
    until eval "$3"; do
        [ $SECONDS -lt "$until" ] || { check "$1 (waited ${2}s)" "not yet" "done"; return 1; }
        sleep 0.05
    done
}

q <<'SQL'
CREATE EXTENSION idcodec;
-- the real time in microseconds since 1970, from PostgreSQL's own clock (gettimeofday, which the shim leaves alone)
CREATE FUNCTION real_us() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint $$;
-- every ID made, with the real times before and after its call; n counts in the order of the calls
CREATE TABLE made (n bigserial, scenario text, session text, b bigint, id bigint, a bigint);
-- single calls that may fail, with what they said
CREATE TABLE tried (n bigserial, scenario text, b bigint, id bigint, state text, message text, detail text, hint text,
                    a bigint);
-- each session's last batch: when it began
CREATE TABLE progress (scenario text, session text, last_b bigint, PRIMARY KEY (scenario, session));
CREATE TABLE stop (scenario text);
-- the clock's changes (clock_change) and the stretches of real time each may have been read in
CREATE TABLE seg (base bigint, shown bigint, slowdown bigint, done bigint);
CREATE TABLE segs (base bigint, shown bigint, slowdown bigint, until bigint);
-- the greatest and the least unix millisecond the shimmed clock showed between two real times in microseconds
CREATE FUNCTION shim_max_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT max((shown + (least(a_us * 1000 + 999, until) - base) / slowdown) / 1000000) FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
CREATE FUNCTION shim_min_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT min((shown + (greatest(b_us * 1000, base) - base) / slowdown) / 1000000) FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
CREATE FUNCTION unix_ms(id bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT (id >> 22) + 1672531200000 $$;
-- the gap a 55000 names
CREATE FUNCTION gap(message text) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT substring(message FROM 'the clock is ([0-9]+) ms behind')::bigint $$;

-- a batch of IDs
CREATE FUNCTION generate_batch(scen text, sess text, size int) RETURNS void LANGUAGE sql AS $$
    INSERT INTO made (scenario, session, b, id, a)
        SELECT scen, sess, real_us(), snowflake_generate(), real_us() FROM generate_series(1, size);
$$;
-- batches, each committed, until the scenario is stopped (an error ends the session)
CREATE PROCEDURE generate(scen text, sess text, size int, pause float8) LANGUAGE plpgsql AS $$
DECLARE began bigint;
BEGIN
    WHILE NOT EXISTS (SELECT FROM stop WHERE scenario = scen) LOOP
        began := real_us();
        INSERT INTO made (scenario, session, b, id, a)
            SELECT scen, sess, real_us(), snowflake_generate(), real_us() FROM generate_series(1, size);
        INSERT INTO progress VALUES (scen, sess, began)
            ON CONFLICT (scenario, session) DO UPDATE SET last_b = excluded.last_b;
        COMMIT;
        PERFORM pg_sleep(pause);
    END LOOP;
END $$;
-- single calls, pause seconds apart, until one ends with the SQLSTATE until_state ('00000': an ID) or most were made
CREATE FUNCTION attempt(scen text, until_state text, pause float8, most int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE began bigint; made_id bigint; st text; msg text; det text; hnt text; i int := 0;
BEGIN
    LOOP
        i := i + 1;
        made_id := NULL; st := '00000'; msg := NULL; det := NULL; hnt := NULL;
        began := real_us();
        BEGIN
            made_id := snowflake_generate();
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
                                    hnt = PG_EXCEPTION_HINT;
        END;
        INSERT INTO tried (scenario, b, id, state, message, detail, hint, a)
            VALUES (scen, began, made_id, st, msg, det, hnt, real_us());
        EXIT WHEN st = until_state OR i >= most;
        PERFORM pg_sleep(pause);
    END LOOP;
    RETURN i;
END $$;
SQL
postmaster_started=$(q -c "SELECT pg_postmaster_start_time()")

load_segments() {
    q -c "TRUNCATE seg" -c "\\copy seg FROM '$work/segments' DELIMITER ' '" \
      -c "TRUNCATE segs" \
      -c "INSERT INTO segs SELECT base, shown, slowdown, coalesce(lead(done) OVER (ORDER BY base), 9e18::bigint) FROM seg"
}
# batch SCENARIO SESSION SIZE: that many IDs on a connection of its own
batch() { q -c "SELECT generate_batch('$1', '$2', $3)" >/dev/null; }
# sessions SCENARIO LONG SHORT SIZE PAUSE: LONG sessions on one connection each (l1, l2, ...) and SHORT ones
# connecting for every batch (r1, ...) generate batches of SIZE IDs, PAUSE seconds apart, until stopped; their pids in
# $session_pids
session_pids=()
sessions() {
    local scenario=$1 size=$4 pause=$5 i
    session_pids=()
    for i in $(seq "$2"); do
        { q -c "CALL generate('$scenario', 'l$i', $size, $pause)" >"$work/$scenario.l$i.out" 2>&1 ||
              echo "l$i: $(tail -n 1 "$work/$scenario.l$i.out")" >>"$work/$scenario.errors"; } &
        session_pids+=($!)
    done
    for i in $(seq "$3"); do
        {
            while [ ! -e "$work/$scenario.stop" ]; do
                # the batch and its progress, in one statement on a new connection each time
                q -c "WITH began AS (SELECT real_us() AS at), m AS (
                          INSERT INTO made (scenario, session, b, id, a)
                          SELECT '$scenario', 'r$i', real_us(), snowflake_generate(), real_us()
                          FROM generate_series(1, $size), began RETURNING 1)
                      INSERT INTO progress SELECT '$scenario', 'r$i', at FROM began WHERE EXISTS (SELECT FROM m)
                      ON CONFLICT (scenario, session) DO UPDATE SET last_b = excluded.last_b" \
                    >>"$work/$scenario.r$i.out" 2>&1 ||
                    { echo "r$i: $(tail -n 1 "$work/$scenario.r$i.out")" >>"$work/$scenario.errors"; sleep 0.05; }
                sleep "$pause"
            done
        } &
        session_pids+=($!)
    done
}
stop_sessions() {
    touch "$work/$1.stop"
    q -c "INSERT INTO stop VALUES ('$1')" 2>/dev/null || true
    local pid
    for pid in "${session_pids[@]}"; do wait "$pid" || true; done
    session_pids=()
}
trap 'for pid in "${session_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; cluster_stop_all' EXIT
# progressed SCENARIO SESSIONS SINCE_US: each of the sessions finished a batch it began after that real time
progressed() {
    [ "$(q -c "SELECT count(*) FROM progress WHERE scenario = '$1' AND last_b > $3" 2>/dev/null)" = "$2" ]
}
# lead SCENARIO: the greatest lead of its IDs over the latest time the clock showed during their calls, in ms
lead() {
    q -c "SELECT coalesce(max(unix_ms(id) - shim_max_ms(b, a)), 0)
          FROM (SELECT b, id, a FROM made WHERE scenario LIKE '$1%'
                UNION ALL SELECT b, id, a FROM tried WHERE scenario LIKE '$1%' AND id IS NOT NULL) i"
}
errors() { cat "$work"/$1.errors 2>/dev/null | sort | uniq -c | head -n 3 | sed 's/^ *//' | tr '\n' ';'; }

# ---- 1. the clock steps back 5 ms, three times, while 4 sessions generate
scenario_started=$SECONDS
sessions s1 4 0 200 0.002
await "the 4 sessions generate" 60 "progressed s1 4 0" || true
for step in 1 2 3; do
    clock_change step -5
    read -r _ _ _ stepped_at <<<"$(tail -n 1 "$work/segments")"
    await "the 4 sessions go on after step $step back" 60 "progressed s1 4 $((stepped_at / 1000))" || break
done
stop_sessions s1
load_segments
IFS='|' read -r made_1 distinct_1 sessions_1 <<<"$(q -c "
    SELECT count(*), count(DISTINCT id), count(DISTINCT session) FROM made WHERE scenario = 's1'")"
expect "5 ms back, three times, under 4 sessions: no call failed" "$(errors s1)" ""
expect "... no ID repeats among the $made_1 they made" "$distinct_1 of $sessions_1 sessions" "$made_1 of 4 sessions"
expect "... each session's IDs increase call by call" \
    "$(q -c "SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY n) AS back
                                   FROM made WHERE scenario = 's1') m WHERE back")" 0
lead_1=$(lead s1)
expect "... the calls waited for the clock: no ID's millisecond is after the latest one the clock showed during its" \
      "call, give or take 1 ms (the greatest lead: $lead_1 ms)" "$([ "$lead_1" -le 1 ] && echo none ahead || echo "$lead_1 ms ahead")" \
    "none ahead"
echo "scenario 1 (5 ms back under load) took $((SECONDS - scenario_started)) s"

# ---- 2. the clock steps back 2 s
scenario_started=$SECONDS
restart
# the step made from the session that generates, between two statements: however slow the machine, the first call
# after it comes well within the second in which the gap would be waited for
q -c "SELECT generate_batch('s2', 'before', 1000)" -c "\\! $(clock_command step -2000)" \
  -c "SELECT attempt('s2.step', '00000', 0.02, 2000)" >/dev/null
batch s2 after 1000
load_segments
# the last ID before the step: its millisecond is the one the gaps are measured from
last_2=$(q -c "SELECT max(unix_ms(id)) FROM made WHERE scenario = 's2' AND session = 'before'")
IFS="|" read -r first_state first_gap refused refused_right resumed resumed_wait <<<"$(q -c "
    SELECT (SELECT state FROM tried WHERE scenario = 's2.step' ORDER BY n LIMIT 1),
           (SELECT coalesce(gap(message)::text, '-') FROM tried WHERE scenario = 's2.step' ORDER BY n LIMIT 1),
           count(*) FILTER (WHERE state <> '00000'),
           count(*) FILTER (WHERE state = '55000' AND gap(message) > 1000 AND detail IS NOT NULL AND hint IS NOT NULL
                              AND gap(message) BETWEEN $last_2 - shim_max_ms(b, a) - 2 AND $last_2 - shim_min_ms(b, a) + 2),
           count(*) FILTER (WHERE state = '00000' AND shim_max_ms(b, a) >= $last_2
                              AND id > (SELECT max(id) FROM made WHERE scenario = 's2' AND session = 'before')),
           max((a - b) / 1000) FILTER (WHERE state = '00000')
    FROM tried WHERE scenario = 's2.step'")"
expect "2 s back: the first call fails with 55000 naming the gap (about 2000 ms), instead of an ID from the future" \
    "$first_state $([ "${first_gap/-/0}" -gt 1000 ] && [ "${first_gap/-/0}" -le 2002 ] && echo about 2000 || echo "$first_gap ms")" \
    "55000 about 2000"
expect "... every call fails so while the clock is over 1000 ms behind the last ID ($refused), each with the gap the" \
      "clock had (±2 ms), a DETAIL and a HINT" "$refused_right" "$refused"
expect "... once the clock is back within 1000 ms a call waits for it (${resumed_wait:-?} ms) and generation resumes" \
      "above the last ID, the clock past it" "$resumed" 1
IFS='|' read -r made_2 distinct_2 above_2 <<<"$(q -c "
    SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE session = 'after' AND id > (SELECT max(id) FROM made
                                                        WHERE scenario = 's2' AND session = 'before'))
    FROM (SELECT id, session FROM made WHERE scenario = 's2' UNION ALL
          SELECT id, 'after' FROM tried WHERE scenario = 's2.step' AND id IS NOT NULL) i")"
lead_2=$(lead s2)
expect "... no ID repeats, all after above all before, none ahead of the clock by more than $lead_bound ms (the" \
      "greatest lead: $lead_2 ms)" "$distinct_2 $above_2 $([ "$lead_2" -le $lead_bound ] && echo within)" \
    "$made_2 1001 within"
echo "scenario 2 (2 s back) took $((SECONDS - scenario_started)) s"

# ---- 3. the clock ran an hour ahead and steps back to the right time; the error survives a restart; the recovery
scenario_started=$SECONDS
restart
batch s3 before 1000
clock_change step 3600000
# the IDs of the hour ahead and the step back from one session: the first call after the step follows at once
q -c "SELECT generate_batch('s3', 'ahead', 1000)" -c "\\! $(clock_command step -3600000)" \
  -c "SELECT attempt('s3.step', 'none', 0.01, 3)" >/dev/null
restart
q -c "SELECT attempt('s3.restart', 'none', 0.01, 3)" >/dev/null
recover
batch s3 recovered 1000
load_segments
last_3=$(q -c "SELECT max(unix_ms(id)) FROM made WHERE scenario = 's3' AND session = 'ahead'")
# gaps SCENARIO FAR: each call's SQLSTATE and whether its gap is the clock's distance to the last ID (±2 ms; with up
# to FAR ms more: the reservation of a server life before)
gaps() {
    q -c "SELECT string_agg(state || CASE WHEN gap(message) BETWEEN $last - shim_max_ms(b, a) - 2
                                                           AND $last - shim_min_ms(b, a) + 2 + $2
                                            AND detail IS NOT NULL AND hint IS NOT NULL THEN ' gap ok'
                                       ELSE ' ' || coalesce(gap(message) - ($last - shim_min_ms(b, a)) || ' ms off',
                                                            message, unix_ms(id) - shim_max_ms(b, a) || ' ms ahead')
                                  END, ', ' ORDER BY n)
          FROM tried WHERE scenario = '$1'"
}
last=$last_3
gap_3=$(q -c "SELECT gap(message) FROM tried WHERE scenario = 's3.step' ORDER BY n LIMIT 1")
expect "an hour ahead and back: 55000, the gap about 3,600,000 ms (${gap_3:-none})" \
    "$(gaps s3.step 0) $([ "${gap_3:-0}" -ge 3599000 ] && [ "${gap_3:-0}" -le 3600002 ] && echo about an hour)" \
    "55000 gap ok, 55000 gap ok, 55000 gap ok about an hour"
gap_3r=$(q -c "SELECT gap(message) FROM tried WHERE scenario = 's3.restart' ORDER BY n LIMIT 1")
expect "... after a restart too, from the reservation file (the gap ${gap_3r:-none} ms, the reservation" \
      "$((${gap_3r:-0} - ${gap_3:-0})) ms past the first gap)" "$(gaps s3.restart 3000)" \
    "55000 gap ok, 55000 gap ok, 55000 gap ok"
IFS='|' read -r made_3 distinct_3 from_clock placed below_3 <<<"$(q -c "
    SELECT count(*), count(DISTINCT id),
           count(*) FILTER (WHERE scenario = 's3' AND session = 'recovered'
                              AND unix_ms(id) BETWEEN shim_min_ms(b, a) AND shim_max_ms(b, a)),
           count(*) FILTER (WHERE scenario = 's3' AND session = 'recovered'
                              AND id > (SELECT max(id) FROM made WHERE scenario = 's3' AND session = 'before')
                              AND id < (SELECT min(id) FROM made WHERE scenario = 's3' AND session = 'ahead')),
           $last_3 - min(unix_ms(id)) FILTER (WHERE scenario = 's3' AND session = 'recovered')
    FROM (SELECT * FROM made UNION ALL SELECT n, scenario, 'tried', b, id, a FROM tried WHERE id IS NOT NULL) i")"
expect "... the recovery (stop, remove idcodec_snowflake, start): 1000 IDs from the clock, above every ID made before" \
      "it ran ahead, below those of the hour ahead ($below_3 ms), none equal to any ID made in this run ($made_3)" \
    "$from_clock $placed $distinct_3" "1000 1000 $made_3"
echo "scenario 3 (an hour ahead and back) took $((SECONDS - scenario_started)) s"

# ---- 4. a jump to 1.5 s before the layout's end, and back
scenario_started=$SECONDS
cluster_stop snowflake
clock_change set "$(date +%s%N)"
start
q -c "SELECT generate_batch('s4', 'before', 1000)" -c "\\! $(clock_command set $(((end_ms - 1500) * 1000000)))" \
  -c "SELECT attempt('s4.jump', '22008', 0.02, 1000)" >/dev/null
clock_change set "$(date +%s%N)"
q -c "SELECT attempt('s4.back', 'none', 0.01, 3)" >/dev/null
restart
q -c "SELECT attempt('s4.restart', 'none', 0.01, 3)" >/dev/null
recover
batch s4 recovered 1000
load_segments
IFS="|" read -r made_2092 made_in_time _ spent_at_end spent_message <<<"$(q -c "
    SELECT count(*) FILTER (WHERE id IS NOT NULL),
           count(*) FILTER (WHERE unix_ms(id) BETWEEN $((end_ms - 1500)) AND least(shim_max_ms(b, a), $((end_ms - 1)))),
           count(*) FILTER (WHERE state = '22008'), count(*) FILTER (WHERE state = '22008' AND shim_max_ms(b, a) >= $end_ms),
           min(message) FILTER (WHERE state = '22008')
    FROM tried WHERE scenario = 's4.jump'")"
expect "a jump to 2092-09-06 15:47:34.052 UTC: IDs of 2092, none ahead of the clock, until the clock passes the" \
      "layout's end; then 22008 ($spent_message)" \
    "$made_in_time $spent_at_end $([[ $spent_message == *spent* ]] && echo spent)" \
    "$([ "$made_2092" -ge 1 ] && echo "$made_2092" || echo "some") 1 spent"
last=$(q -c "SELECT max(unix_ms(id)) FROM tried WHERE scenario = 's4.jump'")
gap_4=$(q -c "SELECT gap(message) FROM tried WHERE scenario = 's4.back' ORDER BY n LIMIT 1")
expect "... back at the real time: 55000 with the gap (${gap_4:-none} ms), not \"spent\", no ID of 2092" \
    "$(gaps s4.back 0)" "55000 gap ok, 55000 gap ok, 55000 gap ok"
expect "... after a restart too" "$(gaps s4.restart 3000)" "55000 gap ok, 55000 gap ok, 55000 gap ok"
IFS='|' read -r made_4 distinct_4 from_clock <<<"$(q -c "
    SELECT count(*), count(DISTINCT id),
           count(*) FILTER (WHERE scenario = 's4' AND session = 'recovered'
                              AND unix_ms(id) BETWEEN shim_min_ms(b, a) AND shim_max_ms(b, a))
    FROM (SELECT * FROM made UNION ALL SELECT n, scenario, 'tried', b, id, a FROM tried WHERE id IS NOT NULL) i")"
expect "... the recovery: 1000 IDs from the clock, none equal to any ID made in this run ($made_4)" \
    "$from_clock $distinct_4" "1000 $made_4"
echo "scenario 4 (a jump to the layout's end) took $((SECONDS - scenario_started)) s"

# ---- 5. the reservation file removed, replaced and truncated while 4 sessions generate: each operation under
# sessions of its own, so that 1.6.0's long sessions too had mapped the file it changes
scenario_started=$SECONDS
restart
postmaster_started=$(q -c "SELECT pg_postmaster_start_time()")
batch s5 first 1000
as_postgres cp "$state" "$CLUSTERS/older"
older=$(head -c 64 "$CLUSTERS/older" | tr '\0' '@' | head -n 1)
# older indeed: the IDs made go past its reservation (1.6.0's binary word has none to wait for)
if [[ $older =~ ^idcodec\ snowflake\ v2\ ([0-9]+)$ ]]; then
    older_ms=${BASH_REMATCH[1]}
    await "the IDs pass the older copy's reservation" 20 \
        "batch s5 first 100 && [ \"\$(q -c \"SELECT max(unix_ms(id)) >= $older_ms FROM made\")\" = t ]" || true
fi
# reservation: the file's reservation, when it is one (64 bytes, "idcodec snowflake v2 <unix ms>") written by the
# server (not the older copy's); each is kept with the real time before it was read, to be checked against the IDs
# made before then
: >"$work/reads"
reservation() {
    local at content
    at=$(now_us)
    content=$(head -c 80 "$state" 2>/dev/null | tr '\0' '@' | head -n 1) || true
    [ "$(stat -c %s "$state" 2>/dev/null)" = 64 ] && [[ $content =~ ^idcodec\ snowflake\ v2\ ([0-9]+)$ ]] &&
        [ "${BASH_REMATCH[1]}" != "${older_ms:-}" ] || return 1
    echo "$at ${BASH_REMATCH[1]}" >>"$work/reads"
}
operations=(remove rename cp truncate)
backs=()
for operation in "${operations[@]}"; do
    scenario=s5.$operation
    sessions "$scenario" 2 2 100 0.005
    await "$operation: the 4 sessions generate" 60 "progressed $scenario 4 0" || true
    done_at=$(now_us)
    case $operation in
        remove) as_postgres rm "$state" ;;
        rename) as_postgres cp "$CLUSTERS/older" "$data/idcodec_snowflake.new" &&
                as_postgres mv "$data/idcodec_snowflake.new" "$state" ;;
        cp) as_postgres cp "$CLUSTERS/older" "$state" ;;
        truncate) as_postgres truncate -s 0 "$state" ;;
    esac
    if await "$operation: the file is back, a reservation" 5 reservation; then
        read -r back_at _ < <(tail -n 1 "$work/reads")
        backs+=("$(((back_at - done_at) / 1000))")
    else
        backs+=(never)
    fi
    await "$operation: the 4 sessions go on" 10 "progressed $scenario 4 $(now_us)" || true
    reservation || true
    stop_sessions "$scenario"
done
IFS='|' read -r made_5 distinct_5 longest <<<"$(q -c "
    SELECT count(*), count(DISTINCT id), max(a - previous) / 1000
    FROM (SELECT id, a, lag(a) OVER (PARTITION BY scenario ORDER BY a) AS previous FROM made WHERE scenario LIKE 's5%') m")"
expect "the reservation file removed, replaced by an older copy (by a rename, by cp over it) and truncated under 4" \
      "sessions: no call failed" "$(errors 's5.*')" ""
repeated=$(q -c "
    SELECT string_agg(split_part(scenario, '.', 2) || ' ' || n, ', ' ORDER BY scenario)
    FROM (SELECT scenario, count(*) FILTER (WHERE r.id IS NOT NULL) AS n
          FROM made LEFT JOIN (SELECT id FROM made WHERE scenario LIKE 's5%' GROUP BY id HAVING count(*) > 1) r USING (id)
          WHERE scenario LIKE 's5.%' GROUP BY scenario) o")
expect "... no ID repeats among the $made_5 made" \
    "$distinct_5$([ "$distinct_5" = "$made_5" ] || echo " (the IDs made twice, by operation: $repeated)")" "$made_5"
expect "... generation never stopped for over a second (the longest pause: ${longest} ms)" \
    "$([ "${longest:-0}" -le 1000 ] && echo no)" no
expect "... after each, the server writes the file again, 64 bytes \"idcodec snowflake v2 <ms>\" (after ${backs[*]} ms;" \
      "the older copy: $older)" "$(printf '%s\n' "${backs[@]}" | sed 's/^[0-9]*$/ok/' | tr '\n' ' ')" "ok ok ok ok "
q -c "CREATE TEMP TABLE reads (at bigint, reserved bigint)" \
  -c "\\copy reads FROM '$work/reads' DELIMITER ' '" \
  -c "SELECT count(*) FROM reads r
        WHERE reserved <= (SELECT max(unix_ms(id)) FROM made WHERE scenario LIKE 's5%' AND a < r.at)" >"$work/broken"
expect "... every reservation the server wrote that was read ($(wc -l <"$work/reads")) is past every ID of this server" \
      "life whose call had ended before it was read" \
    "$(cat "$work/broken")" 0
log=$(cluster_log snowflake)
expect "... no backend crashed (the postmaster's start time is the same, the log shows no signal)" \
    "$(q -c "SELECT pg_postmaster_start_time()" 2>&1) $(grep -E 'terminated by signal' "$log" | head -n 3)" \
    "$postmaster_started "
echo "scenario 5 (the reservation file) took $((SECONDS - scenario_started)) s"

IFS='|' read -r made_all distinct_all <<<"$(q -c "
    SELECT count(*), count(DISTINCT id) FROM (SELECT id FROM made UNION ALL SELECT id FROM tried WHERE id IS NOT NULL) i")"
lead_all=$(lead s)
expect "in all: no ID repeats among the $made_all made; every ID of node $node; none ahead of the clock by more than" \
      "$lead_bound ms (the greatest lead: $lead_all ms)" \
    "$distinct_all $(q -c "SELECT count(*) FROM made WHERE (id >> 12) & 1023 <> $node") $([ "$lead_all" -le $lead_bound ] && echo within)" \
    "$made_all 0 within"
echo "snowflake_generate() and the clock on PostgreSQL $(q -c "SHOW server_version"): $made_all IDs;" \
     "$((SECONDS - started)) s in all; $passes passed, $failures failed"
[ "$failures" -eq 0 ]
