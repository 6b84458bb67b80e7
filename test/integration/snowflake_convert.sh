#!/usr/bin/env bash
# A table taken over by snowflake_convert_column survives pg_dump and pg_restore: an account table whose identity key
# 5,000 invoices refer to is converted, gets new rows, is dumped (custom format) and restored into a new database.
# There the rows and their keys are those of the original, the foreign key holds and is enforced, the default is
# idcodec's snowflake_generate() and new rows get snowflakes of the restoring session's node above every old key.
#
# Then the call must judge every row, as a table owner that is not a superuser (a superuser bypasses row security),
# one statement per call, and leave the table as it was whenever it refuses (its catalog: default, identity, row
# security, policies, sequences; and its rows):
#   a. a REPEATABLE READ or SERIALIZABLE transaction whose snapshot predates a row committed since (a key above
#      now's snowflake IDs) is refused with 25000 and a hint to READ COMMITTED: that snapshot cannot see the row;
#      so is a single REPEATABLE READ statement called while another session holds an uncommitted late key (its
#      snapshot is taken before it would wait for that session's lock); in READ COMMITTED the call waits for that
#      session, then sees its row and refuses with 22003;
#   b. FORCE ROW LEVEL SECURITY with a policy hiding a high key from the owner: refused with 22003 (the owner's
#      read must see every row) with FORCE still on and the identity still there; with the hidden row below now's
#      IDs it converts, and FORCE and the policy stay.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
source_db=idcodec_snowflake_source
restored_db=idcodec_snowflake_restored
guard_db=idcodec_snowflake_guard
owner_role=idcodec_snowflake_owner
dump=$(mktemp)
work=$(mktemp -d)
cleanup() {
    rm -f "$dump"
    rm -rf "$work"
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $source_db" \
      -c "DROP DATABASE IF EXISTS $restored_db" -c "DROP DATABASE IF EXISTS $guard_db WITH (FORCE)" \
      -c "DROP ROLE IF EXISTS $owner_role" >/dev/null 2>&1 || true
    # then the suite's own cluster, if it has one (suite_cluster's trap, replaced by this one)
    if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi
}
trap cleanup EXIT
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $source_db" -c "DROP DATABASE IF EXISTS $restored_db" \
  -c "CREATE DATABASE $source_db" -c "CREATE DATABASE $restored_db"

# every row's key, name and place (the place shows the table was not rewritten)
rows="SELECT string_agg(id || ':' || name, ',' ORDER BY id) FROM account"
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db <<'SQL'
CREATE EXTENSION idcodec;
CREATE TABLE account (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL);
CREATE TABLE invoice (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                      account_id bigint NOT NULL REFERENCES account, amount int NOT NULL);
INSERT INTO account (name) SELECT 'account ' || g FROM generate_series(1, 1000) g;
INSERT INTO invoice (account_id, amount) SELECT 1 + g % 1000, g FROM generate_series(1, 5000) g;
CREATE TABLE places_before AS SELECT id, ctid AS place FROM account;
SQL
filenode_before=$(q -d $source_db -c "SELECT pg_relation_filenode('account')")
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db -c "SELECT snowflake_convert_column('account', 'id')" \
    -c "SELECT snowflake_convert_column('invoice', 'id')" >/dev/null
check "converted in place: same file, every old row where it was" \
    "$(q -d $source_db -c "SELECT pg_relation_filenode('account') = $filenode_before,
                                  count(*) FROM places_before p JOIN account a ON a.id = p.id AND a.ctid = p.place")" \
    "t|1000"
PGOPTIONS="-c idcodec.node_id=11" q -d $source_db \
    -c "INSERT INTO account (name) SELECT 'new account ' || g FROM generate_series(1, 10) g" \
    -c "INSERT INTO invoice (account_id, amount) SELECT id, 1 FROM account WHERE name LIKE 'new %'"
check "new rows on node 11, above the old keys" \
    "$(q -d $source_db -c "SELECT count(*), bool_and(snowflake_node(id) = 11), min(id) > 1000 FROM account WHERE name LIKE 'new %'")" \
    "10|t|t"
check "the dump writes the default as idcodec's function" \
    "$(pg_dump -d $source_db --schema-only -t account | grep -c 'DEFAULT public.snowflake_generate()')" "1"

pg_dump -d $source_db -Fc -f "$dump"
restore_errors=$(pg_restore -d $restored_db --exit-on-error "$dump" 2>&1 || echo "exit $?")
check "pg_restore into a new database: no error" "$restore_errors" ""
check "the restored rows: the same keys and names" \
    "$(q -d $restored_db -c "$rows" | md5sum)" "$(q -d $source_db -c "$rows" | md5sum)"
check "the restored foreign key holds and is enforced" \
    "$(q -d $restored_db -c "SELECT count(*) FROM invoice i JOIN account a ON a.id = i.account_id" \
         -c "SELECT convalidated FROM pg_constraint WHERE conname = 'invoice_account_id_fkey'")
$(PGOPTIONS="-c idcodec.node_id=12" q -d $restored_db -c "INSERT INTO invoice (account_id, amount) VALUES (-1, 1)" 2>&1 |
  grep -o 'violates foreign key constraint')" \
    "5010
t
violates foreign key constraint"
PGOPTIONS="-c idcodec.node_id=12" q -d $restored_db -c "INSERT INTO account (name) VALUES ('restored')"
check "after the restore, new rows get snowflakes of this node above every key" \
    "$(q -d $restored_db -c "SELECT snowflake_node(id), id > (SELECT max(id) FROM account WHERE name <> 'restored')
                             FROM account WHERE name = 'restored'")" "12|t"

# ---- every row judged, refusals leave the table as it was
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $guard_db WITH (FORCE)" \
  -c "DROP ROLE IF EXISTS $owner_role" -c "CREATE ROLE $owner_role LOGIN" -c "CREATE DATABASE $guard_db OWNER $owner_role"
q -d $guard_db -c "CREATE EXTENSION idcodec"
tap_diag "idcodec $(q -d $guard_db -c "SELECT extversion FROM pg_extension WHERE extname = 'idcodec'") in $guard_db"
# the table's owner (not a superuser) and a superuser, who reads every row and the catalog
owner() { q -U $owner_role -d $guard_db "$@"; }
super() { q -d $guard_db "$@"; }
late_key="snowflake_least(now() + interval '1 hour')"  # a key above now's snowflake IDs (one made an hour ahead)

# make_table NAME: the owner's table of 100 rows keyed by an identity
make_table() {
    owner -c "CREATE TABLE $1 (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL)"
    owner -c "INSERT INTO $1 (name) SELECT 'row ' || g FROM generate_series(1, 100) g"
}
# catalog NAME: what the call may change of the table: the column's default and identity, the row security, the
# policies, and the sequences that belong to the table (with their last values)
catalog() {
    super -c "SELECT format('default %s, identity %s; row security %s, forced %s; policies %s; sequences %s',
                         coalesce(pg_get_expr(d.adbin, d.adrelid), 'none'), coalesce(nullif(a.attidentity::text, ''), 'none'),
                         c.relrowsecurity, c.relforcerowsecurity,
                         (SELECT coalesce(string_agg(polname || ' ' || pg_get_expr(polqual, polrelid), ', ' ORDER BY polname), 'none')
                          FROM pg_policy WHERE polrelid = c.oid),
                         (SELECT coalesce(string_agg(format('%s (%s, last %s)', s.oid::regclass, dep.deptype,
                                                            pg_sequence_last_value(s.oid)), ', ' ORDER BY s.oid), 'none')
                          FROM pg_depend dep JOIN pg_class s ON s.oid = dep.objid AND s.relkind = 'S'
                          WHERE dep.classid = 'pg_class'::regclass AND dep.refclassid = 'pg_class'::regclass
                            AND dep.refobjid = c.oid))
             FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'id'
             LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
             WHERE c.oid = '$1'::regclass"
}
# rows NAME: the rows other than the late one another session adds, and how many late ones there are
rows() {
    super -c "SELECT format('%s rows %s, %s late', count(*) FILTER (WHERE name <> 'late'),
                         md5(string_agg(id || ':' || name, ',' ORDER BY id) FILTER (WHERE name <> 'late')),
                         count(*) FILTER (WHERE name = 'late')) FROM $1"
}
# converted_note NAME STATE: when a call that should have been refused converted, what that means
converted_note() {
    [ "$2" = 00000 ] || return 0
    tap_diag "$(super -c "SELECT format('  (it converted: the column holds %s, the snowflake IDs of now start at %s: '
                            'new keys come below it and reach it in %s)', max(id), snowflake_least(clock_timestamp()),
                         date_trunc('second', snowflake_timestamp(max(id)) - clock_timestamp())) FROM $1")"
}

# sqlstate_of OUTPUT: the SQLSTATE of the first error in what psql printed with VERBOSITY verbose, else 00000
sqlstate_of() {
    local state
    state=$(sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): .*/\1/p' <<<"$1" | head -n 1)
    echo "${state:-00000}"
}

# A session held open while this script does other things: the owner's psql reading statements from a fifo.
# session_run STATEMENT sends one statement (without its semicolon), waits for its end and leaves its output (errors
# too) in $said and its SQLSTATE in $state.
session_start() {
    rm -f "$work/in" "$work/out"
    mkfifo "$work/in" "$work/out"
    # (not stopping at an error: the session goes on to its COMMIT)
    psql -X -q -At -U $owner_role -d $guard_db <"$work/in" >"$work/out" 2>&1 &
    session_pid=$!
    exec {session_w}>"$work/in" {session_r}<"$work/out"
}
session_run() {
    local line
    printf '%s;\n\\echo __end :SQLSTATE\n' "$1" >&"$session_w"
    said=""
    while :; do
        if ! IFS= read -r -t 120 line <&"$session_r"; then
            # (no test of its own when it answers: a session that hangs ends the suite)
            tap_not_ok "the held session answers within 120 s: $1"
            tap_done
            exit 1
        fi
        case $line in
            "__end "*) state=${line#__end }; return 0 ;;
        esac
        said+="$line"$'\n'
    done
}
session_end() {
    exec {session_w}>&-
    wait "$session_pid" || true
    exec {session_r}<&-
}

# a. A transaction that took its snapshot, then another session commits a late key, then the call: the snapshot
# cannot see that row, so the call must refuse rather than convert above an incomplete maximum.
for level in "REPEATABLE READ" "SERIALIZABLE"; do
    table=conv_$(tr 'A-Z ' 'a-z_' <<<"$level")
    make_table $table
    catalog_before=$(catalog $table)
    rows_before=$(rows $table)
    session_start
    session_run "BEGIN ISOLATION LEVEL $level"
    session_run "SELECT 1"
    owner -c "INSERT INTO $table (id, name) OVERRIDING SYSTEM VALUE VALUES ($late_key, 'late')"
    session_run "SELECT snowflake_convert_column('$table', 'id')"
    call_state=$state
    call_said=$said
    session_run "COMMIT"
    session_end
    check "$level, snapshot taken, then a late key committed by another session: the call is refused with 25000 and a hint to READ COMMITTED" \
        "$call_state|$(grep -c '^HINT:.*READ COMMITTED' <<<"$call_said")" "25000|1"
    converted_note $table "$call_state"
    check "$level: after the refusal the table is as it was (catalog; its rows and the late one)" \
        "$(catalog $table); $(rows $table)" "$catalog_before; ${rows_before%, 0 late}, 1 late"
done

# waiting_call LEVEL TABLE: the other session holds an uncommitted late key while a single statement of LEVEL calls
# the conversion, which waits for that session's lock (or refuses at once); the other session then commits. The
# call's SQLSTATE is left in $state, what it printed in $said, and whether it waited for the lock in $waited.
waiting_call() {
    local level=$1 table=$2 tries=0
    rm -f "$work/waiter.done"
    session_start
    session_run "BEGIN"
    session_run "INSERT INTO $table (id, name) OVERRIDING SYSTEM VALUE VALUES ($late_key, 'late')"
    # (the call's own session; it must not hold the held session's fifo open)
    (exec {session_w}>&- {session_r}<&-
     PGAPPNAME=idcodec_convert_waiter owner -c "SET default_transaction_isolation = '$level'" -c "\\set VERBOSITY verbose" \
        -c "SELECT snowflake_convert_column('$table', 'id')" >"$work/waiter.out" 2>&1 || true
     touch "$work/waiter.done") &
    local waiter=$!
    waited=no
    while [ ! -e "$work/waiter.done" ]; do
        if [ "$(super -c "SELECT count(*) FROM pg_stat_activity
                          WHERE application_name = 'idcodec_convert_waiter' AND wait_event_type = 'Lock'")" = 1 ]; then
            waited=yes
            break
        fi
        tries=$((tries + 1))
        if [ $tries -ge 1200 ]; then
            # (no test of its own when it does: a call that neither waits nor ends ends the suite)
            tap_not_ok "the call waits for the lock or ends within a minute ($level, $table)"
            tap_done
            exit 1
        fi
        sleep 0.05
    done
    session_run "COMMIT"
    session_end
    wait "$waiter"
    said=$(cat "$work/waiter.out")
    state=$(sqlstate_of "$said")
}
# (in READ COMMITTED the call must have waited for the other session: that is the case shown)
for case in "repeatable read|conv_waited_rr|25000" "read committed|conv_waited_rc|22003"; do
    IFS='|' read -r level table expected <<<"$case"
    make_table $table
    catalog_before=$(catalog $table)
    rows_before=$(rows $table)
    waiting_call "$level" $table
    if [ "$level" = "read committed" ]; then
        state="$state, waited $waited"
        expected="$expected, waited yes"
    fi
    check "a single ${level^^} statement while another session holds a late key, committed once the call waits for the table: refused ($expected)" \
        "$state" "$expected"
    converted_note $table "${state%%,*}"
    check "${level^^}, a late key held by another session: after the refusal the table is as it was (catalog; its rows and the late one)" \
        "$(catalog $table); $(rows $table)" "$catalog_before; ${rows_before%, 0 late}, 1 late"
done

# b. Row security forced on the owner, with a policy that hides a row from it. The high key hidden: the call's read
# must still see it (and refuse); FORCE is put back however the call ends. A low key hidden: it converts.
make_table conv_forced
owner -c "INSERT INTO conv_forced (id, name) OVERRIDING SYSTEM VALUE VALUES ($late_key, 'hidden')"
make_table conv_forced_low
owner -c "UPDATE conv_forced_low SET name = 'hidden' WHERE id = 100"
for table in conv_forced conv_forced_low; do
    owner -c "ALTER TABLE $table ENABLE ROW LEVEL SECURITY" -c "ALTER TABLE $table FORCE ROW LEVEL SECURITY" \
          -c "CREATE POLICY not_hidden ON $table USING (name <> 'hidden')"
done
check "the policy hides the row from the owner, not from a superuser" \
    "$(owner -c "SELECT count(*) FROM conv_forced" -c "SELECT count(*) FROM conv_forced_low")|$(
       super -c "SELECT count(*) FROM conv_forced")" \
    "100
99|101"
catalog_before=$(catalog conv_forced)
rows_before=$(rows conv_forced)
said=$(owner -c "\\set VERBOSITY verbose" -c "SELECT snowflake_convert_column('conv_forced', 'id')" 2>&1 || true)
state=$(sqlstate_of "$said")
check "FORCE ROW LEVEL SECURITY hiding a key above now's IDs from the owner: refused with 22003" "$state" "22003"
converted_note conv_forced "$state"
check "FORCE ROW LEVEL SECURITY: after the refusal the table is as it was (still forced, the identity there; its rows)" \
    "$(catalog conv_forced); $(rows conv_forced)" "$catalog_before; $rows_before"
policy="policies not_hidden (name <> 'hidden'::text)"
check "(the catalog before: forced row security, an identity)" "$catalog_before" \
    "default none, identity a; row security t, forced t; $policy; sequences conv_forced_id_seq (i, last 100)"
owner -c "SELECT snowflake_convert_column('conv_forced_low', 'id')" >/dev/null
check "FORCE ROW LEVEL SECURITY hiding only a low key: converted, FORCE and the policy stay, the identity and its sequence gone" \
    "$(catalog conv_forced_low)" \
    "default snowflake_generate(), identity none; row security t, forced t; $policy; sequences none"
PGOPTIONS="-c idcodec.node_id=13" super -c "INSERT INTO conv_forced_low (name) VALUES ('new')"
check "... the owner still sees all but the hidden row; a new row gets a snowflake of its node above every key" \
    "$(owner -c "SELECT count(*) FROM conv_forced_low")|$(
       super -c "SELECT snowflake_node(id), id > (SELECT max(id) FROM conv_forced_low WHERE name <> 'new')
                 FROM conv_forced_low WHERE name = 'new'")" "100|13|t"
tap_done
