#!/usr/bin/env bash
# Both extensions are trusted: a database owner who is not a superuser installs idcodec and idcodec_pg_hashids,
# owns them, uses them, updates idcodec from its first release (installed from its complete install script, a
# fixture in test/releases/) to the current one and drops them again.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/versions.sh
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(idcodec_current)
first=$(idcodec_oldest)
db=idcodec_trusted
role=idcodec_app_owner
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "DROP ROLE IF EXISTS $role" \
  -c "CREATE ROLE $role LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" -c "CREATE DATABASE $db OWNER $role"
trap 'q -c "DROP DATABASE IF EXISTS $db" -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1 || true
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
as_owner() { q -U "$role" -d "$db" "$@"; }

check "the role is not a superuser" "$(as_owner -c "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")" "f"
check "it installs both extensions (idcodec by CASCADE) and owns them" \
    "$(as_owner -c "CREATE EXTENSION idcodec_pg_hashids CASCADE" \
        -c "SELECT string_agg(extname || ' ' || extversion || ' ' || extowner::regrole, ', ' ORDER BY extname)
            FROM pg_extension WHERE extname LIKE 'idcodec%'")" \
    "idcodec $current $role, idcodec_pg_hashids 1.0.0 $role"
# hashids.js 2.3.0 gives yr8 for 347 with this salt
check "it calls them" "$(as_owner -c "SELECT hashids_encode(347, 'this is my salt') || ' ' || id_encode(347, 'this is my salt')")" \
    "yr8 yr8"
check "it drops them" \
    "$(as_owner -c "DROP EXTENSION idcodec_pg_hashids, idcodec" -c "SELECT count(*) FROM pg_extension WHERE extname LIKE 'idcodec%'")" "0"
check "it installs $first and updates it to $current" \
    "$(as_owner -c "CREATE EXTENSION idcodec VERSION '$first'" -c "ALTER EXTENSION idcodec UPDATE" \
        -c "SELECT extversion FROM pg_extension WHERE extname = 'idcodec'")" "$current"
tap_done
