#!/usr/bin/env bash
# Snowflake IDs against pgEdge's snowflake extension 2.6.0, built from its source, on a cluster of its own (the
# node settings and a restart stay off the shared cluster). Every comparison is exact:
#   a. IDs made by pgEdge's snowflake.nextval() on nodes 1, 2 and 511 (set by ALTER SYSTEM and a reload) and 1023
#      (after a restart with the setting on the command line): pgEdge's get_epoch, get_node and get_count equal
#      idcodec's snowflake_timestamp (as numeric seconds), snowflake_node and snowflake_counter, and the node is the
#      one set;
#   b. IDs made by idcodec's snowflake_generate() on nodes 0, 1, 512 and 1023: pgEdge reads the node set, idcodec's
#      counter and time, and a time within the generating statement's;
#   c. random non-negative bigints (fixed seed, full and narrower widths) and the edges of each field: both read
#      the same time, node and counter;
#   d. for the time of each pgEdge ID (from get_epoch, converted without floating point), snowflake_least is the ID
#      with its node and counter cleared, for the start and the end of that millisecond, and pgEdge's IDs in their
#      order have non-decreasing least IDs;
#   e. a pgEdge column taken over in place by snowflake_convert_column: its default snowflake.nextval(some sequence)
#      (a sequence the column owns, as pgEdge's convert_sequence_to_snowflake leaves a serial column; one it does
#      not own; pgEdge's own snowflake.id_seq), rows made through it on node 77, then idcodec on node 77 too: new
#      keys above every existing key, none twice, node 77, and pgEdge's get_epoch, get_node and get_count read them
#      as idcodec made them. Keys made by pgEdge a moment before the call (in its transaction, after the
#      transaction's start) convert; calls right after pgEdge's last key convert with the next key above it, or
#      are refused (22003) while the clock is still in that key's millisecond, leaving the table as it was: never
#      a repeat.
# TAP: one test per check, a failed comparison showing its first mismatching case. Needs snowflake-2.6.0.tar.gz
# beside the checkout (or in $IDCODEC_PEERS), else skips.
source "$(dirname "$0")/../lib/suite.sh"
archive=$(find_peer snowflake-2.6.0.tar.gz)
if [ -z "$archive" ]; then
    tap_skip_all "pgEdge snowflake: its 2.6.0 source (snowflake-2.6.0.tar.gz) is not beside the checkout"
fi
source test/lib/peer_extension_build.sh
pgedge_snowflake_install "$archive" "${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config" >&2

source test/lib/cluster.sh
port=$(free_port)
cluster_start snowflake "$port"
q() { cluster_psql "$port" -d postgres "$@"; }
PER_NODE=2500
q >&2 <<'SQL'
CREATE EXTENSION idcodec;
CREATE EXTENSION snowflake;
CREATE TABLE pgedge_ids (ord bigserial, id bigint NOT NULL, node int NOT NULL);
CREATE TABLE idcodec_ids (ord bigserial, id bigint NOT NULL, node int NOT NULL, started timestamptz NOT NULL,
                          ended timestamptz);
CREATE TABLE values_ids (ord bigserial, id bigint NOT NULL);
SQL

# pgEdge defines snowflake.node only when its library is loaded, so ALTER SYSTEM needs the LOAD first; a new
# session is forked with the new value only once the postmaster has read the reloaded file, hence the wait (for
# that, up to a minute however loaded the machine).
set_pgedge_node() {
    local tries=0 node=""
    q -c "LOAD 'snowflake'" -c "ALTER SYSTEM SET snowflake.node = $1" -c "SELECT pg_reload_conf()" >/dev/null
    while node=$(q -c "SHOW snowflake.node") && [ "$node" != "$1" ] && [ $tries -lt 600 ]; do
        tries=$((tries + 1))
        sleep 0.1
    done
    check "snowflake.node becomes $1 in new sessions after ALTER SYSTEM and a reload" "$node" "$1"
}
generate_pgedge() {
    q -c "INSERT INTO pgedge_ids (id, node) SELECT snowflake.nextval(), $1 FROM generate_series(1, $PER_NODE)" >&2
}
for node in 1 2 511; do
    set_pgedge_node "$node"
    generate_pgedge "$node"
done
# A setting given on the command line outranks the one ALTER SYSTEM wrote.
cluster_stop snowflake
cluster_run snowflake "$port" "snowflake.node=1023"
generate_pgedge 1023

for node in 0 1 512 1023; do
    q >&2 <<SQL
SET idcodec.node_id = $node;
INSERT INTO idcodec_ids (id, node, started) SELECT snowflake_generate(), $node, statement_timestamp() FROM generate_series(1, $PER_NODE);
UPDATE idcodec_ids SET ended = clock_timestamp() WHERE node = $node AND ended IS NULL;
SQL
done

# Random values from a fixed seed, 63 bits made of two draws (one double holds fewer), a quarter of them shifted
# narrower so small times, nodes and counters come too; then each field's edges.
q >&2 <<'SQL'
SELECT setseed(0.1963);
INSERT INTO values_ids (id)
SELECT CASE WHEN g % 4 = 0 THEN v >> shift ELSE v END
FROM (SELECT g, (floor(random() * 2147483648)::bigint << 32) | floor(random() * 4294967296)::bigint AS v,
             floor(random() * 63)::int AS shift
      FROM generate_series(1, 4000) g) r;
INSERT INTO values_ids (id)
SELECT unnest(ARRAY[0, 1, 4095, 4096, 1023::bigint << 12, 4194303, 4194304, 4194305,
                    ((1::bigint << 41) - 1) << 22, (((1::bigint << 41) - 1) << 22) | 4095,
                    (((1::bigint << 41) - 1) << 22) | (1023 << 12), 1::bigint << 62, (1::bigint << 62) - 1,
                    9223372036854775806, 9223372036854775807]);
SQL

# How much the pgEdge IDs cover: milliseconds and counters.
tap_diag "$(q -c "SELECT format('pgEdge made %s IDs over %s milliseconds, counters up to %s', count(*),
                              count(DISTINCT id >> 22), max(id & 4095)) FROM pgedge_ids")"

# compare NAME EXPECTED_CASES QUERY: QUERY gives a row (ord, ok, detail) per case; every case must be ok and there
# must be EXPECTED_CASES of them.
compare() {
    local out total bad first
    if ! out=$(q -F '|' -c "SELECT count(*), count(*) FILTER (WHERE ok IS NOT TRUE),
                                   (array_agg(detail ORDER BY ord) FILTER (WHERE ok IS NOT TRUE))[1]
                            FROM ($3) c" 2>&1); then
        tap_not_ok "$1" "$out"
        return
    fi
    IFS='|' read -r total bad first <<<"$out"
    if [ "$bad" -ne 0 ]; then
        tap_not_ok "$1: $bad of $total cases differ" "the first: $first"
    elif [ "$total" -ne "$2" ]; then
        tap_not_ok "$1: $total cases, expected $2"
    else
        tap_ok "$1 ($total cases)"
    fi
}

# decoded TABLE [COLUMNS]: each ID of TABLE read by both, pe* by pgEdge and ic* by idcodec. get_epoch gives numeric
# Unix seconds with three decimals; extract(epoch ...) of a timestamptz gives numeric seconds exactly too (six
# decimals), and numeric equality ignores the scale.
decoded() {
    echo "SELECT ord, id, ${2:+$2, }snowflake.get_epoch(id) AS pe, snowflake.get_node(id) AS pe_node,
                 snowflake.get_count(id) AS pe_count, extract(epoch FROM snowflake_timestamp(id)) AS ic,
                 snowflake_node(id) AS ic_node, snowflake_counter(id) AS ic_count
          FROM $1"
}
same="pe = ic AND pe_node = ic_node AND pe_count = ic_count"
shown="'pgEdge %s s, node %s, count %s; idcodec %s s, node %s, counter %s'"
fields="pe, pe_node, pe_count, ic, ic_node, ic_count"

compare "pgEdge's snowflake.nextval() IDs on nodes 1, 2, 511 and 1023 read alike by both, with the node set" \
    $((PER_NODE * 4)) "
    SELECT ord, $same AND pe_node = node AS ok, format('id %s (node %s): ' || $shown, id, node, $fields) AS detail
    FROM ($(decoded pgedge_ids node)) d"

# The IDs' milliseconds lie between the generating statement's start and the end of the run, plus one millisecond
# for each 4096 IDs (a full counter borrows the next one).
slack_ms=$(((PER_NODE * 4 + 4095) / 4096))
compare "idcodec's snowflake_generate() IDs on nodes 0, 1, 512 and 1023 read alike by both, with the node and time" \
    $((PER_NODE * 4)) "
    SELECT ord, $same AND pe_node = node AND pe * 1000 >= floor(extract(epoch FROM started) * 1000)
                AND pe * 1000 <= floor(extract(epoch FROM ended) * 1000) + $slack_ms AS ok,
           format('id %s (node %s, made from %s to %s): ' || $shown, id, node, started, ended, $fields) AS detail
    FROM ($(decoded idcodec_ids 'node, started, ended')) d"

compare "random non-negative bigints (seeded) and field edges read alike by both" 4015 "
    SELECT ord, $same AS ok, format('id %s: ' || $shown, id, $fields) AS detail
    FROM ($(decoded values_ids)) d"

# The time of a pgEdge ID as a timestamptz without floating point: whole milliseconds times an interval of one
# (exact in interval arithmetic at this size), checked against get_epoch again.
compare "snowflake_least of pgEdge IDs' times is the ID without node and counter, in the IDs' order" $((PER_NODE * 4)) "
    SELECT ord, extract(epoch FROM at) = pe AND least_start = (id >> 22) << 22 AND least_end = least_start
                AND (previous IS NULL OR previous <= least_start) AS ok,
           format('id %s: pgEdge %s s, as timestamptz %s; least IDs %s (start of the ms) and %s (its end), expected %s, the previous ID''s %s',
                  id, pe, at, least_start, least_end, (id >> 22) << 22, previous) AS detail
    FROM (SELECT *, lag(least_start) OVER (ORDER BY id) AS previous
          FROM (SELECT ord, id, pe, at, snowflake_least(at) AS least_start,
                       snowflake_least(at + interval '999 microseconds') AS least_end
                FROM (SELECT ord, id, snowflake.get_epoch(id) AS pe,
                             timestamptz 'epoch' + (snowflake.get_epoch(id) * 1000)::bigint * interval '1 millisecond' AS at
                      FROM pgedge_ids) t) l) o"

# ---- e. pgEdge's columns taken over in place
node=77
# sessions of node 77 for both generators (superuser: both settings are PGC_SUSET)
qn() { PGOPTIONS="-c snowflake.node=$node -c idcodec.node_id=$node" q "$@"; }
qn >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE TABLE pgedge_owned (id bigserial PRIMARY KEY, name text NOT NULL);
INSERT INTO pgedge_owned (name) SELECT 'serial ' || g FROM generate_series(1, 100) g;
SELECT snowflake.convert_sequence_to_snowflake('pgedge_owned_id_seq');
CREATE SEQUENCE pgedge_free_seq;
CREATE TABLE pgedge_free (id bigint PRIMARY KEY DEFAULT snowflake.nextval('pgedge_free_seq'), name text NOT NULL);
CREATE TABLE pgedge_plain (id bigint PRIMARY KEY DEFAULT snowflake.nextval(), name text NOT NULL);
CREATE SEQUENCE pgedge_recent_seq;
CREATE TABLE pgedge_recent (id bigint PRIMARY KEY DEFAULT snowflake.nextval('pgedge_recent_seq'), name text NOT NULL);
ALTER SEQUENCE pgedge_recent_seq OWNED BY pgedge_recent.id;
SQL
takeover_tables="pgedge_owned pgedge_free pgedge_plain pgedge_recent"
for table in pgedge_owned pgedge_free pgedge_plain; do
    qn -c "INSERT INTO $table (name) SELECT 'pgEdge ' || g FROM generate_series(1, 1000) g" >&2
done
defaults="pgedge_free: snowflake.nextval('pgedge_free_seq'::regclass), owned f; "
defaults+="pgedge_owned: snowflake.nextval('pgedge_owned_id_seq'::regclass), owned t; "
defaults+="pgedge_plain: snowflake.nextval(), owned f; "
defaults+="pgedge_recent: snowflake.nextval('pgedge_recent_seq'::regclass), owned t"
check "pgEdge's defaults (the first sequence owned by its column, as convert_sequence_to_snowflake leaves it)" \
    "$(q -c "SELECT string_agg(format('%s: %s, owned %s', c, pg_get_expr(d.adbin, d.adrelid),
                                       pg_get_serial_sequence(c, 'id') IS NOT NULL), '; ' ORDER BY c)
             FROM unnest(string_to_array('$takeover_tables', ' ')) c JOIN pg_attrdef d ON d.adrelid = c::regclass")" \
    "$defaults"
# old_rows TABLE: the rows there before the takeover (every row but idcodec's)
old_rows() {
    q -c "SELECT count(*) || ' ' || md5(string_agg(id || ':' || name, ',' ORDER BY id)) FROM $1
          WHERE name NOT LIKE 'idcodec %'"
}
# past_last_key TABLE: a statement that returns once the clock has left the millisecond of TABLE's greatest key
past_last_key() {
    echo "DO \$\$ BEGIN WHILE snowflake_least(clock_timestamp()) <= (SELECT max(id) FROM $1) LOOP END LOOP; END \$\$"
}
# taken_over TABLE: the default, whether the table kept its file, the new rows against the old ones (above every old
# key, node 77 by both readers, pgEdge's time and counter equal to idcodec's), no key twice, the rows before
taken_over() {
    q -c "SELECT format('default %s, same file %s', pg_get_expr(d.adbin, d.adrelid),
                        pg_relation_filenode('$1') = ${filenode[$1]})
          FROM pg_attrdef d WHERE d.adrelid = '$1'::regclass" \
      -c "SELECT format('%s new, above every old key %s, node $node %s, pgEdge reads them alike %s, %s of %s keys distinct',
                        count(*) FILTER (WHERE new), min(id) FILTER (WHERE new) > max(id) FILTER (WHERE NOT new),
                        bool_and(snowflake_node(id) = $node AND snowflake.get_node(id) = $node) FILTER (WHERE new),
                        bool_and(snowflake.get_epoch(id) = extract(epoch FROM snowflake_timestamp(id))
                                 AND snowflake.get_count(id) = snowflake_counter(id)) FILTER (WHERE new),
                        count(DISTINCT id), count(*))
          FROM (SELECT id, name LIKE 'idcodec %' AS new FROM $1) t"
}
declare -A filenode rows_before
for table in $takeover_tables; do
    filenode[$table]=$(q -c "SELECT pg_relation_filenode('$table')")
done
for table in pgedge_owned pgedge_free pgedge_plain; do
    rows_before[$table]=$(old_rows $table)
    said=$(qn -c "$(past_last_key $table)" -c "SELECT snowflake_convert_column('$table', 'id')" 2>&1) || true
    check "$table: snowflake_convert_column takes it over: no error" "$said" ""
    said=$(qn -c "INSERT INTO $table (name) SELECT 'idcodec ' || g FROM generate_series(1, 1000) g" 2>&1) || true
    check "$table: 1,000 new rows: no error (no key twice)" "$said" ""
    all=$(( ${rows_before[$table]%% *} + 1000 ))
    check "$table: converted in place; the new keys above every old key, node $node, read alike by pgEdge" \
        "$(taken_over $table)" \
        "default snowflake_generate(), same file t
1000 new, above every old key t, node $node t, pgEdge reads them alike t, $all of $all keys distinct"
    check "$table: the rows before are as they were, pgEdge's on node $node" \
        "$(old_rows $table)|$(q -c "SELECT count(*) FROM $table WHERE name LIKE 'pgEdge %' AND snowflake.get_node(id) = $node")" \
        "${rows_before[$table]}|1000"
done
check "the sequences are left (the owned one to its column, pgEdge's to its extension)" \
    "$(q -c "SELECT pg_get_serial_sequence('pgedge_owned', 'id'), to_regclass('pgedge_free_seq') IS NOT NULL,
                    to_regclass('snowflake.id_seq') IS NOT NULL")" "public.pgedge_owned_id_seq|t|t"

# Keys pgEdge made in the calling transaction, after its start (now() is before them, the clock after): the
# transaction waits for the clock to leave the millisecond of the last key, then calls. (The sequence is the
# column's, so that 1.6.0 too takes the column over, but judges it by the transaction's start.) The calls above
# wait for that too: a call in the millisecond of the table's last key is refused, rightly (the race below).
said=$(qn -c "BEGIN" -c "INSERT INTO pgedge_recent (name) SELECT 'pgEdge ' || g FROM generate_series(1, 1000) g" \
          -c "SELECT format('pgEdge keys %s ms after the transaction''s start', (max(id) >> 22) - (snowflake_least(now()) >> 22))
              FROM pgedge_recent" \
          -c "$(past_last_key pgedge_recent)" \
          -c "SELECT snowflake_convert_column('pgedge_recent', 'id')" -c "COMMIT" 2>&1) || true
tap_diag "$(grep '^pgEdge keys' <<<"$said" || true)"
check "pgEdge keys made a moment before the call, in its transaction: converted" \
    "$(grep -v '^pgEdge keys' <<<"$said")" ""
said=$(qn -c "INSERT INTO pgedge_recent (name) SELECT 'idcodec ' || g FROM generate_series(1, 1000) g" 2>&1) || true
check "pgedge_recent: converted in place, 1,000 new keys above every old key, node $node, read alike by pgEdge" \
    "$said$(taken_over pgedge_recent)" \
    "default snowflake_generate(), same file t
1000 new, above every old key t, node $node t, pgEdge reads them alike t, 2000 of 2000 keys distinct"

# Calls right after pgEdge's last key, in one block (its transaction started before the keys). A call may refuse
# (22003) only while the clock is still in that key's millisecond: so only if the clock read just before the call
# was; otherwise it converts, and the next key comes above. Either way no repeat, and a refusal leaves the table as
# it was. (How many calls come within that millisecond depends on the machine's speed: the count is shown.)
race_tables=10
race_errors=""
q -c "CREATE TABLE race_outcome (race int PRIMARY KEY, outcome text NOT NULL, last_key bigint NOT NULL,
                                 called_ms bigint NOT NULL)" >&2
for race in $(seq 1 $race_tables); do
    q -c "CREATE SEQUENCE pgedge_race_${race}_seq" \
      -c "CREATE TABLE pgedge_race_$race (id bigint PRIMARY KEY DEFAULT snowflake.nextval('pgedge_race_${race}_seq'),
                                           name text NOT NULL)" \
      -c "ALTER SEQUENCE pgedge_race_${race}_seq OWNED BY pgedge_race_$race.id" >&2
    race_errors+=$(qn -c "DO \$\$
           DECLARE
               last_key bigint;
               called_ms bigint;
           BEGIN
               INSERT INTO pgedge_race_$race (name) SELECT 'pgEdge ' || g FROM generate_series(1, 10) g;
               SELECT max(id) INTO last_key FROM pgedge_race_$race;
               called_ms := snowflake_least(clock_timestamp()) >> 22;
               BEGIN
                   PERFORM snowflake_convert_column('pgedge_race_$race', 'id');
                   INSERT INTO pgedge_race_$race (name) VALUES ('idcodec 1');
                   INSERT INTO race_outcome VALUES ($race, 'converted', last_key, called_ms);
               EXCEPTION WHEN numeric_value_out_of_range THEN
                   INSERT INTO race_outcome VALUES ($race, 'refused', last_key, called_ms);
               END;
           END \$\$" 2>&1) || true
done
race_check=""
for race in $(seq 1 $race_tables); do
    race_check+="${race_check:+ UNION ALL }
        SELECT o.race, o.outcome, CASE o.outcome
                   WHEN 'converted' THEN pg_get_expr(d.adbin, d.adrelid) = 'snowflake_generate()'
                                         AND (SELECT count(*) = 11 AND bool_and(snowflake_node(id) = $node)
                                                     AND min(id) FILTER (WHERE name = 'idcodec 1')
                                                         > max(id) FILTER (WHERE name <> 'idcodec 1')
                                              FROM pgedge_race_$race)
                   ELSE o.called_ms <= o.last_key >> 22
                        AND pg_get_expr(d.adbin, d.adrelid) = 'snowflake.nextval(''pgedge_race_${race}_seq''::regclass)'
                        AND (SELECT count(*) = 10 AND bool_and(name LIKE 'pgEdge %') FROM pgedge_race_$race) END AS ok,
               format('table %s %s, called %s ms after the last key', o.race, o.outcome,
                      o.called_ms - (o.last_key >> 22)) AS detail
        FROM race_outcome o, pg_attrdef d WHERE o.race = $race AND d.adrelid = 'pgedge_race_$race'::regclass"
done
tap_diag "$(q -c "SELECT format('right after pgEdge''s last key: %s of %s calls converted, %s refused in its millisecond, %s refused later',
                              count(*) FILTER (WHERE outcome = 'converted'), count(*),
                              count(*) FILTER (WHERE outcome = 'refused' AND called_ms <= last_key >> 22),
                              count(*) FILTER (WHERE outcome = 'refused' AND called_ms > last_key >> 22))
                FROM race_outcome")"
check "calls right after pgEdge's last key: each converted with its next key above, or refused in that key's millisecond with the table as it was" \
    "$race_errors$(q -c "SELECT count(*), bool_and(ok), string_agg(detail, '; ' ORDER BY race) FILTER (WHERE NOT ok)
                         FROM ($race_check) r")" \
    "$race_tables|t|"
tap_done
