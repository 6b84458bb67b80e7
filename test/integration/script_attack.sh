#!/usr/bin/env bash
# The attack on the extension scripts, as a role whose only privilege is CREATE on a database: it plants traps
# (test/security/plant_traps.sql) for every operator, function and relation the scripts use (read from the scripts
# themselves by test/security/check_scripts.js --names, so a new script is covered as it comes), in the schema it
# installs into and as temporary objects of its session. Then it installs every version of idcodec directly (the
# current one, and every earlier release from its complete install script, a fixture in test/releases/ that a test
# installation has), walks every upgrade path one step at a time, and installs idcodec_pg_hashids; a superuser
# takes a real pg_hashids over in a schema the role owns, with traps. Every step must succeed, no trap may run, and
# the role stays unprivileged.
#
# First the same attack runs on 1.3.0's scripts (test/security/vulnerable-1.3.0/, installed under other extension
# names for the while): there the traps must run and the role become a superuser, or this test could not fail.
#
# What the scripts use is read with PostgreSQL's parser from npm (libpg-query). When the npm registry cannot be
# reached, the traps and what needs them (the control, "no trap ran") are skipped, saying so; every install, update
# and refusal still runs as the unprivileged role.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/versions.sh
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
attacker=idcodec_mallory
extension_dir="$("$PG_BIN/pg_config" --sharedir)/extension"
current=$(idcodec_current)

traps=1
under="under the traps"
reading="what the scripts use is read (test/security/check_scripts.sh --names)"
if used=$(bash test/security/check_scripts.sh --names idcodec--*.sql idcodec_pg_hashids--*.sql test/releases/*.sql \
                test/security/vulnerable-1.3.0/*.sql); then
    tap_ok "$reading"
    tap_diag "traps for: $(tr '\n' ' ' <<<"$used")"
elif [ $? -eq 77 ]; then
    skipped="the traps and the control on 1.3.0's scripts: ${used#*SKIPPED: }"
    tap_skip "$reading: $skipped"
    traps=0
    used=
    under="without traps"
else
    tap_not_ok "$reading" "$used"
    tap_done || exit 1
fi

cleanup() {
    for db in idcodec_attack idcodec_attack_takeover; do q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
    q -c "DROP ROLE IF EXISTS $attacker" >/dev/null 2>&1 || true
    rm -f "$extension_dir"/idcodec_v130*
}
trap 'cleanup; if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
cleanup

# A database where the attacker may only create (schemas), with its trap log and traps in schema m.
new_database() {
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" \
      -c "GRANT CREATE ON DATABASE $1 TO $attacker"
    as_attacker "$1" -c "CREATE SCHEMA trap_log" -c "CREATE SEQUENCE trap_log.hits" \
        -c "GRANT USAGE ON SCHEMA trap_log TO PUBLIC" -c "GRANT USAGE, UPDATE ON SEQUENCE trap_log.hits TO PUBLIC" \
        -c "CREATE SCHEMA m"
    [ $traps = 0 ] || plant "$1" m
}
as_attacker() { local db=$1; shift; q -U "$attacker" -d "$db" "$@"; }
plant() {  # plant DATABASE SCHEMA: one test, that the traps are planted there
    local out
    out=$(as_attacker "$1" -v used="$used" -v trap_schema="$2" -v attacker="$attacker" -f test/security/plant_traps.sql 2>&1) || true
    if grep -q 'NOTICE:  planted' <<<"$out"; then
        tap_ok "the traps are planted in $1.$2"
        tap_diag "$(sed -nE 's/.*NOTICE: +(planted .*)/\1/p' <<<"$out" | sort -u)"
    else
        tap_not_ok "the traps are planted in $1.$2" "$out"
    fi
}
# session STOP DATABASE ROLE STATEMENT...: the statements in order in one session (where the attacker's temporary
# traps live, planted first), ending at the first error when STOP is 1; its output and errors, and psql's status
session() {
    local stop=$1 db=$2 role=$3; shift 3
    local args=(-v used="$used" -v trap_schema=pg_temp -v attacker="$attacker" -f test/security/plant_traps.sql)
    [ "$role" = "$attacker" ] && [ $traps = 1 ] || args=()
    local statement
    for statement in "$@"; do args+=(-c "$statement"); done
    psql -X -q -At -v ON_ERROR_STOP="$stop" -U "$role" -d "$db" "${args[@]}" 2>&1
}
# run_session DATABASE ROLE STATEMENT...: prints "ok" or the first error
run_session() {
    local out
    if out=$(session 1 "$@"); then echo ok; else grep -m1 'ERROR' <<<"$out" || echo "failed: $out"; fi
}
# session_errors DATABASE ROLE STATEMENT...: every statement runs; prints each error, one a line
session_errors() { session 0 "$@" | grep 'ERROR' || true; }
hits() { q -d "$1" -c "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM trap_log.hits"; }
is_superuser() { q -c "SELECT rolsuper FROM pg_roles WHERE rolname = '$attacker'"; }

q -c "CREATE ROLE $attacker LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
pg_hashids_archive=$(find_peer pg_hashids-1.3.tar.gz)
if [ -n "$pg_hashids_archive" ]; then
    source test/lib/peer_extension_build.sh
    pg_hashids_install "$pg_hashids_archive" "$PG_BIN/pg_config" >/dev/null
fi

# ---- the control: 1.3.0's scripts fall to the attack
if [ $traps = 1 ]; then
    for file in idcodec.control test/releases/idcodec--1.0.0.sql \
                test/security/vulnerable-1.3.0/idcodec--1.0.0--1.1.0.sql; do
        base=$(basename "$file")
        sed 's/idcodec/idcodec_v130/g; s/idcodec_v130_/idcodec_/g; s#\$libdir/idcodec_v130#$libdir/idcodec#' "$file" \
            >"$extension_dir/${base/idcodec/idcodec_v130}"
    done
    sed "s/default_version = .*/default_version = '1.0.0'/" -i "$extension_dir/idcodec_v130.control"
    new_database idcodec_attack
    check "1.3.0's update script runs the attacker's code, as the issue's exploit" \
        "$(run_session idcodec_attack "$attacker" "CREATE EXTENSION idcodec_v130 VERSION '1.0.0' SCHEMA m" \
            "ALTER EXTENSION idcodec_v130 UPDATE TO '1.1.0'") $(hits idcodec_attack | awk '{print ($1 > 0)}') $(is_superuser)" \
        "ok 1 t"
    q -c "ALTER ROLE $attacker NOSUPERUSER"
    q -c "DROP DATABASE idcodec_attack"
    if [ -n "$pg_hashids_archive" ]; then
        sed "s/EXTENSION idcodec_pg_hashids/EXTENSION idcodec_v130_pg_hashids/g" test/security/vulnerable-1.3.0/idcodec_pg_hashids--1.0.0.sql \
            >"$extension_dir/idcodec_v130_pg_hashids--1.0.0.sql"
        sed "s/requires = 'idcodec'/requires = 'idcodec_v130'/" idcodec_pg_hashids.control \
            >"$extension_dir/idcodec_v130_pg_hashids.control"
        new_database idcodec_attack_takeover
        q -d idcodec_attack_takeover -c "CREATE EXTENSION pg_hashids SCHEMA m"
        run_session idcodec_attack_takeover postgres "CREATE EXTENSION idcodec_v130_pg_hashids SCHEMA m CASCADE" >/dev/null
        check "1.3.0's takeover of pg_hashids runs the attacker's code when a superuser runs it" \
            "$(hits idcodec_attack_takeover | awk '{print ($1 > 0)}')" "1"
        q -c "ALTER ROLE $attacker NOSUPERUSER"
        q -c "DROP DATABASE idcodec_attack_takeover"
    else
        # (its two tests: the traps planted, and the check)
        tap_skip "1.3.0's takeover of pg_hashids: the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout" 2
    fi
    rm -f "$extension_dir"/idcodec_v130*
else
    tap_skip "the control on 1.3.0's scripts: $skipped"
fi

# ---- the scripts of this release
new_database idcodec_attack
versions=$(idcodec_releases; echo "$current")
# Each kind of attempt runs in one session, under the same temporary traps (planting them takes a second or so).
statements=()
for version in $versions; do
    statements+=("CREATE EXTENSION idcodec VERSION '$version' SCHEMA m" "DROP EXTENSION idcodec")
done
check "installs every version directly (${versions//$'\n'/ }) $under" \
    "$(run_session idcodec_attack "$attacker" "${statements[@]}")" "ok"
statements=()
paths=()
for version in $versions; do
    [ "$version" = "$current" ] && continue
    # the path the server would take, one step at a time
    steps=$(q -d idcodec_attack -c "SELECT replace(path, '--', ' ') FROM pg_extension_update_paths('idcodec')
                                    WHERE source = '$version' AND target = '$current'")
    statements+=("CREATE EXTENSION idcodec VERSION '$version' SCHEMA m")
    for step in ${steps#* }; do statements+=("ALTER EXTENSION idcodec UPDATE TO '$step'"); done
    statements+=("DROP EXTENSION idcodec")
    paths+=("$steps")
done
check "updates every version to $current step by step ($(IFS=';'; echo "${paths[*]}")) $under" \
    "$(run_session idcodec_attack "$attacker" "${statements[@]}")" "ok"
check "installs idcodec_pg_hashids (and idcodec) $under" \
    "$(run_session idcodec_attack "$attacker" "CREATE EXTENSION idcodec_pg_hashids SCHEMA m CASCADE")" "ok"
as_attacker idcodec_attack -c "CREATE SCHEMA m2"
[ $traps = 0 ] || plant idcodec_attack m2
check "installs idcodec_pg_hashids in another schema than idcodec's ($under)" \
    "$(run_session idcodec_attack "$attacker" "DROP EXTENSION idcodec_pg_hashids" \
        "CREATE EXTENSION idcodec_pg_hashids SCHEMA m2" "DROP EXTENSION idcodec_pg_hashids, idcodec")" "ok"
# PostgreSQL lets CREATE EXTENSION name any schema: the scripts refuse one the role may not create in.
statements=()
expected=()
for version in $versions; do
    statements+=("CREATE EXTENSION idcodec VERSION '$version' SCHEMA pg_catalog"
                 "CREATE EXTENSION idcodec VERSION '$version' SCHEMA public")
    expected+=("ERROR:  permission denied for schema pg_catalog" "ERROR:  permission denied for schema public")
done
check "refuses to install any version into pg_catalog or a schema the role may not create in" \
    "$(session_errors idcodec_attack "$attacker" "${statements[@]}")" "$(printf '%s\n' "${expected[@]}")"
if [ $traps = 1 ]; then check "no trap ran" "$(hits idcodec_attack)" "0"; else tap_skip "no trap ran: $skipped"; fi
check "the role is still no superuser" "$(is_superuser)" "f"

if [ -n "$pg_hashids_archive" ]; then
    new_database idcodec_attack_takeover
    q -d idcodec_attack_takeover -c "CREATE EXTENSION pg_hashids SCHEMA m"
    check "a superuser takes pg_hashids over in the attacker's schema, $under" \
        "$(run_session idcodec_attack_takeover postgres "CREATE EXTENSION idcodec_pg_hashids SCHEMA m CASCADE")" "ok"
    check "every pg_hashids function was taken over" \
        "$(q -d idcodec_attack_takeover -c "SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                WHERE e.extname = 'idcodec_pg_hashids' AND d.deptype = 'e'")" "20"
    if [ $traps = 1 ]; then
        check "no trap ran in the takeover" "$(hits idcodec_attack_takeover)" "0"
    else
        tap_skip "no trap ran in the takeover: $skipped"
    fi
    q -d idcodec_attack_takeover -c "DROP EXTENSION idcodec_pg_hashids, idcodec" -c "DROP EXTENSION pg_hashids" \
      -c "CREATE EXTENSION pg_hashids SCHEMA m"
    check "the role itself cannot take over a pg_hashids it does not own, in its own schema" \
        "$(run_session idcodec_attack_takeover "$attacker" "CREATE EXTENSION idcodec_pg_hashids SCHEMA m CASCADE")" \
        "ERROR:  only the owner of extension pg_hashids or a superuser can take its functions over"
    check "the role is still no superuser after the takeover" "$(is_superuser)" "f"
else
    # (its tests: the traps planted when there are traps, and five checks)
    tap_skip "the takeover of pg_hashids: the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout" $((5 + traps))
fi
tap_done
