#!/usr/bin/env bash
# A fresh install of the current version and an install of every earlier release (each from its complete install
# script, a fixture in test/releases/) updated with ALTER EXTENSION UPDATE have identical catalogs: each function's
# signature, argument names and defaults, result, volatility, strictness, parallel safety, cost and rows, C symbol
# and library, and comment; each operator's function, commutator, negator, estimators, HASHES and MERGES; each
# operator class; every member of every operator family. Every function has a one-line comment (what \df+ shows).
# Run on every major: ulid = uuid and uuid = ulid are MERGES from PostgreSQL 17 on (ALTER OPERATOR sets it from 17
# on), in the fresh install and in every updated one, and on 15 and 16 in neither.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/versions.sh
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(idcodec_current)
earlier=$(idcodec_releases)

# Every release the update chain starts from has its complete install script among the fixtures, and there is none
# other: a database at an earlier release is made here as that release's script made it.
fixtures=$(ls test/releases/idcodec--*.sql | sed -nE 's#^test/releases/idcodec--([0-9.]+)\.sql$#\1#p' | sort -V)
check "the fixtures in test/releases/ are the releases the update chain starts from" \
    "$(echo $fixtures)" "$(echo $earlier)"
# ... and the installation has each as it is there: without it, CREATE EXTENSION ... VERSION would quietly make that
# release from an earlier one's script and the updates.
extdir=$("$PG_BIN/pg_config" --sharedir)/extension
for version in $fixtures; do
    if cmp -s "test/releases/idcodec--$version.sql" "$extdir/idcodec--$version.sql"; then
        tap_ok "the installation has test/releases/idcodec--$version.sql as it is"
    else
        tap_not_ok "the installation has test/releases/idcodec--$version.sql as it is" \
            "missing or different in $extdir (make install WITH_RELEASE_FIXTURES=1)"
    fi
done

describe() {
    q -d "$1" -f test/lib/catalog_describe.sql
}

db() {
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
}
# (the throwaway cluster's own EXIT trap is replaced by this one, so it stops the cluster too)
cleanup() {
    local d
    for d in idcodec_catalog_fresh idcodec_catalog_updated; do q -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
    if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi
}
trap cleanup EXIT

# merges DATABASE LABEL: ulid = uuid and uuid = ulid are MERGES there if and only if the server is 17 or later
server=$(q -c "SHOW server_version_num")
expected_merges=$([ "$server" -ge 170000 ] && echo "true true" || echo "false false")
merges_label=$([ "$server" -ge 170000 ] && echo "merge (PostgreSQL 17 and later)" || echo "do not merge (before PostgreSQL 17)")
merges() {
    check "$2: ulid = uuid and uuid = ulid $merges_label on server $server" \
        "$(q -d "$1" -c "SELECT string_agg(oprcanmerge::text, ' ' ORDER BY oprleft::regtype::text COLLATE \"C\")
                          FROM pg_operator WHERE oid IN ('=(ulid,uuid)'::regoperator, '=(uuid,ulid)'::regoperator)" 2>&1)" \
        "$expected_merges"
}

db idcodec_catalog_fresh
q -d idcodec_catalog_fresh -c "CREATE EXTENSION idcodec"
fresh=$(describe idcodec_catalog_fresh)
tap_diag "$current: $(($(wc -l <<<"$fresh") - 1)) functions, operators, operator classes, family members and other objects in a fresh install"
merges idcodec_catalog_fresh "a fresh $current"

# Every function has a comment of one line.
uncommented=$(grep -c '(no comment)$' <<<"$fresh" || true)
multiline=$(q -d idcodec_catalog_fresh -c "SELECT count(*) FROM pg_description d JOIN pg_depend x
    ON x.classid = 'pg_proc'::regclass AND x.objid = d.objoid AND x.deptype = 'e'
    JOIN pg_extension e ON e.oid = x.refobjid AND e.extname = 'idcodec' WHERE d.description ~ E'\n'")
check "every function has a comment, of one line" \
    "functions without a comment: $uncommented, with a comment of several lines: $multiline" \
    "functions without a comment: 0, with a comment of several lines: 0"
[ "$uncommented" -eq 0 ] || tap_diag "$(grep '(no comment)$' <<<"$fresh")"
# ... and \df+ shows it. (The output is read whole: grep -q ending the pipe early could fail psql with SIGPIPE.)
described=$(psql -X -d idcodec_catalog_fresh -c '\df+ hashids_encode' 2>&1 || true)
if grep -q 'hashid of a non-negative number' <<<"$described"; then
    tap_ok '\df+ shows the description of hashids_encode'
else
    tap_not_ok '\df+ shows the description of hashids_encode' "$(head -n 20 <<<"$described")"
fi

# An earlier release that fails to install or update fails both of its tests, with the error as the difference.
for version in $earlier; do
    db idcodec_catalog_updated
    if out=$(q -d idcodec_catalog_updated -c "CREATE EXTENSION idcodec VERSION '$version'" \
                 -c "ALTER EXTENSION idcodec UPDATE" 2>&1); then
        updated=$(describe idcodec_catalog_updated)
        merges idcodec_catalog_updated "$version updated to $current"
    else
        updated="CREATE EXTENSION idcodec VERSION '$version' and ALTER EXTENSION idcodec UPDATE failed: $out"
        tap_not_ok "$version updated to $current: ulid = uuid and uuid = ulid $merges_label on server $server" "$updated"
    fi
    if [ "$updated" = "$fresh" ]; then
        tap_ok "$version updated to $current has the catalog of a fresh $current install"
    else
        tap_not_ok "$version updated to $current has the catalog of a fresh $current install" \
            "$(diff <(echo "$fresh") <(echo "$updated") | head -n 20 || true)"
    fi
done

tap_done
