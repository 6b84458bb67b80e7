#!/usr/bin/env bash
# What a login role with nothing but the default privileges can do to snowflake_generate() (the extension is trusted
# and PUBLIC may execute its functions), on clusters of its own:
#  a. push it as hard as it can, from 1, 2 and 8 sessions (the 2 and 8 for 30 s each), while a sampler session asks
#     for single IDs every 2 ms and every burst of 200,000 IDs measures its own greatest ID against the clock read
#     right after it: an ID's millisecond may never run ahead of the clock (the bound is 10 ms), however much is
#     asked for. 1.6.0 borrowed from the future without bound, so such a push built a lead of seconds;
#  b. turn that into duplicate keys: push a primary (node 7) for 6 s while rows get snowflake keys, stop it (-m fast,
#     then on a fresh pair -m immediate) and promote its streaming standby, which inserts 20,000 rows with
#     snowflake_generate() keys into the replicated table: no duplicate key, all above every key the primary made;
#  c. choose its own node number: a client's -c idcodec.node_id=99 (PGOPTIONS or options= in the conninfo) is refused
#     with a WARNING and the session keeps the server's number (1.6.0 left it unset: -1, no ID at all), SET and
#     ALTER ROLE on itself fail with 42501; a superuser's -c and a superuser's ALTER ROLE ... SET do apply.
# Prints the largest lead seen and the IDs per second of the node for 1, 2 and 8 sessions.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/check.sh
source test/lib/cluster.sh
started=$SECONDS

role=sf_attacker
lead_bound_ms=10       # the documented bound of an ID's millisecond over the clock
# The pushes from 2 and from 8 sessions: 30 s on the default major. The generator's code is the same on every
# major; test/major.sh runs them for 5 s (IDCODEC_PUSH_SECONDS), which shows a lead as surely (an unbounded lead
# grows by seconds in 5 s) at a sixth of the cost.
push_seconds=${IDCODEC_PUSH_SECONDS:-30}
single_seconds=3       # the single session: only its rate is wanted
failover_seconds=6     # the push before each failover
failover_rows=20000    # rows the promoted standby inserts

# as_role PORT [psql arguments]: psql as the role; admin PORT [...]: as the superuser
as_role() {
    local port=$1
    shift
    psql -X -q -At -v ON_ERROR_STOP=1 -h localhost -p "$port" -U "$role" -d postgres "$@"
}
admin() { local port=$1; shift; cluster_psql "$port" -d postgres "$@"; }

# prepare PORT NODE: the extension, the role (LOGIN, nothing granted) and the functions it calls, created by the
# superuser (a role with the default privileges may not create them in public since PostgreSQL 15; PUBLIC may
# execute them, and they run with the caller's rights); the node number set as an administrator does.
prepare() {
    admin "$1" <<SQL >/dev/null
CREATE EXTENSION idcodec;
LOAD 'idcodec';
ALTER SYSTEM SET idcodec.node_id = $2;
SELECT pg_reload_conf();
CREATE ROLE $role LOGIN;
-- IDs in bursts of 200,000 until the time is up; each burst compares its greatest ID's millisecond with the clock
-- read right after it (the heaviest moment of the push). Returns the IDs, the bursts, the largest lead in ms, the
-- greatest ID and the start and end (s since 1970). The rows come from generate_series in the select list, which
-- hands them over one by one: in FROM it collects them all first, and the IDs come about half as fast.
CREATE FUNCTION push(seconds float8, OUT ids bigint, OUT bursts integer, OUT max_lead_ms float8, OUT max_id bigint,
                     OUT started float8, OUT ended float8) LANGUAGE plpgsql AS \$\$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
    burst_ids bigint;
    burst_max bigint;
    burst_lead float8;
BEGIN
    started := extract(epoch FROM clock_timestamp());
    ids := 0;
    bursts := 0;
    LOOP
        SELECT count(*), max(id), extract(epoch FROM snowflake_timestamp(max(id)) - clock_timestamp()) * 1000
          INTO burst_ids, burst_max, burst_lead
          FROM (SELECT snowflake_generate() AS id FROM (SELECT generate_series(1, 200000)) g) burst;
        ids := ids + burst_ids;
        bursts := bursts + 1;
        max_lead_ms := greatest(max_lead_ms, burst_lead);
        max_id := greatest(max_id, burst_max);
        EXIT WHEN clock_timestamp() >= until;
    END LOOP;
    ended := extract(epoch FROM clock_timestamp());
END
\$\$;
-- One ID every 2 ms until the time is up, each against the clock read right after the call: the lead as a client
-- sees it while the others push. Returns the samples, the largest lead in ms and the greatest ID.
CREATE FUNCTION sample(seconds float8, OUT samples integer, OUT max_lead_ms float8, OUT max_id bigint)
LANGUAGE plpgsql AS \$\$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
    id bigint;
BEGIN
    samples := 0;
    WHILE clock_timestamp() < until LOOP
        id := snowflake_generate();
        max_lead_ms := greatest(max_lead_ms, extract(epoch FROM snowflake_timestamp(id) - clock_timestamp()) * 1000);
        max_id := greatest(max_id, id);
        samples := samples + 1;
        PERFORM pg_sleep(0.002);
    END LOOP;
END
\$\$;
SQL
}

# push_from PORT SESSIONS SECONDS: the role pushes from SESSIONS sessions and samples from one more, for SECONDS.
# Sets pushed (IDs), rate (IDs/s of the node), lead (the largest lead seen, ms), bursts, samples, pushed_max (the
# greatest ID); a session that fails is a FAILED check.
push_from() {
    local port=$1 sessions=$2 seconds=$3 dir i pids=() failed=0
    dir=$(mktemp -d "$CLUSTERS/push.XXXXXX")
    for i in $(seq "$sessions"); do
        as_role "$port" -c "SELECT * FROM push($seconds)" >"$dir/push.$i" 2>&1 &
        pids+=($!)
    done
    as_role "$port" -c "SELECT * FROM sample($seconds)" >"$dir/sample" 2>&1 &
    pids+=($!)
    for i in "${pids[@]}"; do wait "$i" || failed=1; done
    expect "the role's $sessions pushing session(s) and its sampler ran to the end" \
        "$([ $failed = 0 ] && echo yes || { echo "no:"; cat "$dir"/*; })" yes
    read -r pushed bursts rate <<<"$(cat "$dir"/push.* | awk -F '|' '
        { ids += $1; bursts += $2; if (NR == 1 || $5 < from) from = $5; if (NR == 1 || $6 > to) to = $6 }
        END { printf "%d %d %d\n", ids, bursts, ids / (to - from) }')"
    IFS='|' read -r samples _ _ <"$dir/sample"
    # the largest lead of the bursts and the samples, and the greatest ID (sort: IDs exceed a double's precision)
    lead=$( { cut -d '|' -f 3 "$dir"/push.*; cut -d '|' -f 2 "$dir/sample"; } | sort -g | tail -n 1)
    pushed_max=$( { cut -d '|' -f 4 "$dir"/push.*; cut -d '|' -f 3 "$dir/sample"; } | sort -n | tail -n 1)
}
within_bound() {
    awk -v lead="$1" -v bound=$lead_bound_ms 'BEGIN { print (lead != "" && lead <= bound) ? "yes" : "no" }'
}

# ---- a. the push: 1 session briefly, then 2 and 8 for 30 s each
port=$(free_port)
cluster_start attack "$port"
prepare "$port" 5
expect "the role is a plain login role: no superuser or other role attribute, a member of no role" \
    "$(admin "$port" -c "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls,
                             (SELECT count(*) FROM pg_auth_members WHERE member = r.oid)
                      FROM pg_roles r WHERE rolname = '$role'")" "f|0"
summary=()
for sessions in 1 2 8; do
    seconds=$([ "$sessions" = 1 ] && echo $single_seconds || echo $push_seconds)
    push_from "$port" "$sessions" "$seconds"
    expect "$sessions session(s) for $seconds s: $pushed IDs in $bursts bursts, $rate IDs/s on the node; the largest" \
        "lead of an ID over the clock ${lead:-?} ms (bursts and $samples samples) <= $lead_bound_ms ms" \
        "$(within_bound "$lead")" yes
    summary+=("$sessions session(s) $rate IDs/s, lead ${lead:-?} ms")
done

# ---- b. a failover right after a push
# failover MODE: a fresh primary (node 7) and its streaming standby; the role pushes from 2 sessions while the
# superuser fills a table with snowflake keys (transactions of 1,000 rows, 20 ms apart); the primary stops with -m MODE
# right after, the standby is promoted and inserts rows with snowflake_generate() keys, one by one, counting duplicates.
failover() {
    local mode=$1 primary_port standby_port filler fill_failed=0 before_stop primary_rows standby_rows duplicates
    local primary_last primary_table_max primary_highest streaming promoted failover_ms
    primary_port=$(free_port)
    standby_port=$(free_port)
    cluster_start "$mode-primary" "$primary_port" "wal_level=replica"
    prepare "$primary_port" 7
    admin "$primary_port" <<'SQL' >/dev/null
CREATE TABLE keys (id bigint PRIMARY KEY);
CREATE PROCEDURE fill(seconds float8) LANGUAGE plpgsql AS $$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
BEGIN
    WHILE clock_timestamp() < until LOOP
        INSERT INTO keys SELECT snowflake_generate() FROM generate_series(1, 1000);
        COMMIT;
        -- a pause, so that the filler and the standby's replay of its rows leave the CPU to the push
        PERFORM pg_sleep(0.02);
    END LOOP;
END
$$;
-- n rows, each in a subtransaction of its own so that a duplicate key is counted, not fatal; returns the duplicates
CREATE FUNCTION insert_keys(n integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    duplicates integer := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO keys VALUES (snowflake_generate());
        EXCEPTION WHEN unique_violation THEN
            duplicates := duplicates + 1;
        END;
    END LOOP;
    RETURN duplicates;
END
$$;
SQL
    as_postgres "$PG_BIN/pg_basebackup" -h "$CLUSTERS" -p "$primary_port" -U postgres -D "$CLUSTERS/$mode-standby" \
        -R -X stream -c fast
    cluster_run "$mode-standby" "$standby_port"
    for _ in $(seq 600); do
        streaming=$(admin "$primary_port" -c "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")
        [ "$streaming" = 1 ] && break
        sleep 0.1
    done
    [ "$streaming" = 1 ] || { echo "FAILED: the standby of the -m $mode round did not stream within a minute"; exit 1; }
    admin "$primary_port" -c "CALL fill($failover_seconds)" >"$CLUSTERS/$mode.fill" 2>&1 &
    filler=$!
    push_from "$primary_port" 2 "$failover_seconds"
    wait "$filler" || fill_failed=1
    # The primary's last ID is above every ID it made (tickets only go up); with the pushers' and the table's greatest
    # it bounds every key it made.
    IFS='|' read -r primary_last primary_table_max primary_rows <<<"$(admin "$primary_port" \
        -c "SELECT snowflake_generate(), max(id), count(*) FROM keys")"
    primary_highest=$(printf '%s\n' "$primary_last" "$primary_table_max" "$pushed_max" | sort -n | tail -n 1)
    before_stop=$(date +%s%N)
    as_postgres "$PG_BIN/pg_ctl" -D "$CLUSTERS/$mode-primary" -m "$mode" -w -t 60 stop >/dev/null
    promoted=$(admin "$standby_port" -c "SELECT pg_promote()")
    failover_ms=$((($(date +%s%N) - before_stop) / 1000000))
    standby_rows=$(admin "$standby_port" -c "SELECT count(*) FROM keys")
    duplicates=$(admin "$standby_port" -c "SELECT insert_keys($failover_rows)")
    expect "failover -m $mode: the push (2 sessions, $rate IDs/s) and the filler ran, the largest lead ${lead:-?} ms" \
        "<= $lead_bound_ms ms; the primary stopped and the standby was promoted, $failover_ms ms in all" \
        "$([ $fill_failed = 0 ] && [ "$promoted" = t ] && echo "ran, lead $(within_bound "$lead")" ||
           cat "$CLUSTERS/$mode.fill")" "ran, lead yes"
    expect "failover -m $mode: the promoted standby (with $standby_rows of the primary's $primary_rows rows) inserted" \
        "$failover_rows rows with snowflake_generate() keys: $duplicates duplicate-key errors" "$duplicates" 0
    expect "failover -m $mode: every row there, each key once, every new key of node 7 and above every key the" \
        "primary made" \
        "$(admin "$standby_port" -c "SELECT count(*), count(DISTINCT id),
                                         count(*) FILTER (WHERE id > $primary_highest AND snowflake_node(id) = 7)
                                  FROM keys")" \
        "$((standby_rows + failover_rows))|$((standby_rows + failover_rows))|$failover_rows"
    cluster_stop "$mode-standby"
    summary+=("failover -m $mode: $duplicates duplicates")
}
failover fast
failover immediate

# ---- c. the client's own node number, on the cluster of a
admin "$port" -c "ALTER SYSTEM SET idcodec.node_id = 12" -c "SELECT pg_reload_conf()" >/dev/null
# session CONNINFO: the node of an ID the session makes and its SHOW, one a line, then its errors (terse); its
# warnings after them, prefixed "warned:" (stderr and stdout apart, so their order is known)
session() {
    local out err
    err=$(mktemp)
    out=$(psql -X -q -At -v VERBOSITY=terse "$1" -c "SELECT snowflake_node(snowflake_generate())" \
              -c "SHOW idcodec.node_id" 2>"$err" || true)
    printf '%s\n' "$out"
    grep -E '^(ERROR|FATAL)' "$err" || true
    grep '^WARNING:' "$err" | sed 's/^/warned: /' || true
    rm -f "$err"
}
# values_of OUTPUT: "NODE SHOWN" (and the errors); warned OUTPUT: whether a WARNING named the setting
values_of() { grep -v '^warned:' <<<"$1" | paste -sd ' '; }
warned() {
    grep -q '^warned:.*idcodec\.node_id' <<<"$1" && echo warned || echo "no warning: $(grep '^warned:' <<<"$1")"
}
conninfo="host=localhost port=$port dbname=postgres"

out=$(PGOPTIONS="-c idcodec.node_id=99" session "$conninfo user=$role")
expect "a non-superuser's PGOPTIONS='-c idcodec.node_id=99' is refused: a WARNING" "$(warned "$out")" warned
expect "... and the session keeps the configured 12: its IDs' node and SHOW" "$(values_of "$out")" "12 12"
out=$(session "$conninfo user=$role options='-c idcodec.node_id=99'")
expect "a non-superuser's options='-c idcodec.node_id=99' in the conninfo is refused: a WARNING" \
    "$(warned "$out")" warned
expect "... and the session keeps the configured 12: its IDs' node and SHOW" "$(values_of "$out")" "12 12"
out=$(PGOPTIONS="-c idcodec.node_id=99" session "$conninfo user=postgres")
expect "a superuser's -c idcodec.node_id=99 applies to its session: its IDs' node and SHOW" \
    "$(values_of "$out")" "99 99"
admin "$port" -c "ALTER ROLE $role SET idcodec.node_id = 33"
out=$(session "$conninfo user=$role")
expect "ALTER ROLE $role SET idcodec.node_id = 33 by a superuser applies (a superuser's setting): node, SHOW," \
    "no warning" \
    "$(values_of "$out") $(grep -c '^warned:' <<<"$out" || true)" "33 33 0"
admin "$port" -c "ALTER ROLE $role RESET idcodec.node_id"
expect "the role's own SET, set_config and ALTER ROLE ... SET of idcodec.node_id fail with 42501; it keeps 12" \
    "$(psql -X -q -At -v VERBOSITY=sqlstate "$conninfo user=$role" -c "SELECT snowflake_generate() > 0" \
        -c "SET idcodec.node_id = 99" -c "SELECT set_config('idcodec.node_id', '99', false)" \
        -c "ALTER ROLE $role SET idcodec.node_id = 99" \
        -c "SELECT snowflake_node(snowflake_generate()) || ' ' || current_setting('idcodec.node_id')" 2>&1 |
      paste -sd ' ')" \
    "t ERROR:  42501 ERROR:  42501 ERROR:  42501 12 12"
# before the library is loaded in its session the setting is only a placeholder, which anyone may SET; the load must
# not take the role's value
out=$(psql -X -q -At -v VERBOSITY=terse "$conninfo user=$role" -c "SET idcodec.node_id = 99" \
          -c "SELECT snowflake_node(snowflake_generate()) || ' ' || current_setting('idcodec.node_id')" 2>&1 |
      grep -v '^WARNING:' | paste -sd ' ')
expect "the role's SET idcodec.node_id = 99 before the library is loaded is not taken: node and setting" "$out" "12 12"

summary+=("$((SECONDS - started)) s")
echo "snowflake attack on PostgreSQL $(admin "$port" -c "SHOW server_version"):" \
     "$(printf '%s; ' "${summary[@]}")$passes passed, $failures failed"
[ "$failures" -eq 0 ]
