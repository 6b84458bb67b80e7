#!/usr/bin/env bash
# A fresh install of the current version and an install of every earlier release (each from its complete install
# script, a fixture in test/releases/) updated with ALTER EXTENSION UPDATE have identical catalogs: each function's
# signature, argument names and defaults, result, volatility, strictness, parallel safety, cost and rows, C symbol
# and library, and comment; each operator's function, commutator, negator, estimators, HASHES and MERGES; each
# operator class; every member of every operator family. Every function has a one-line comment (what \df+ shows).
# Run on every major: ulid = uuid and uuid = ulid are MERGES from PostgreSQL 17 on (ALTER OPERATOR sets it from 17
# on), in the fresh install and in every updated one, and on 15 and 16 in neither.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/versions.sh
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(idcodec_current)
earlier=$(idcodec_releases)
failures=0

# Every release the update chain starts from has its complete install script among the fixtures, and there is none
# other: a database at an earlier release is made here as that release's script made it.
fixtures=$(ls test/releases/idcodec--*.sql | sed -nE 's#^test/releases/idcodec--([0-9.]+)\.sql$#\1#p' | sort -V)
if [ "$fixtures" != "$earlier" ]; then
    echo "the fixtures in test/releases/ ($(echo $fixtures)) are not the releases the update chain starts from ($(echo $earlier))"
    failures=$((failures + 1))
fi
# ... and the installation has each as it is there: without it, CREATE EXTENSION ... VERSION would quietly make that
# release from an earlier one's script and the updates.
extdir=$("$PG_BIN/pg_config" --sharedir)/extension
for version in $fixtures; do
    if ! cmp -s "test/releases/idcodec--$version.sql" "$extdir/idcodec--$version.sql"; then
        echo "the installation lacks test/releases/idcodec--$version.sql as it is (make install WITH_RELEASE_FIXTURES=1)"
        failures=$((failures + 1))
    fi
done

describe() {
    q -d "$1" -f test/lib/catalog_describe.sql
}

db() {
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
}

# merges DATABASE LABEL: ulid = uuid and uuid = ulid are MERGES there if and only if the server is 17 or later
server=$(q -c "SHOW server_version_num")
expected_merges=$([ "$server" -ge 170000 ] && echo "true true" || echo "false false")
merges() {
    local found
    found=$(q -d "$1" -c "SELECT string_agg(oprcanmerge::text, ' ' ORDER BY oprleft::regtype::text COLLATE \"C\")
                          FROM pg_operator WHERE oid IN ('=(ulid,uuid)'::regoperator, '=(uuid,ulid)'::regoperator)")
    if [ "$found" != "$expected_merges" ]; then
        echo "$2: ulid = uuid and uuid = ulid have oprcanmerge '$found' on server $server, not '$expected_merges'"
        failures=$((failures + 1))
        return 1
    fi
}

db idcodec_catalog_fresh
q -d idcodec_catalog_fresh -c "CREATE EXTENSION idcodec"
fresh=$(describe idcodec_catalog_fresh)
echo "$current: $(($(wc -l <<<"$fresh") - 1)) functions, operators, operator classes, family members and other objects in a fresh install"
if merges idcodec_catalog_fresh "a fresh $current"; then
    echo "$current: ulid = uuid and uuid = ulid $([ "$server" -ge 170000 ] && echo "merge (PostgreSQL 17 and later)" ||
        echo "do not merge (before PostgreSQL 17)") on server $server"
fi

# Every function has a comment of one line.
uncommented=$(grep -c '(no comment)$' <<<"$fresh" || true)
multiline=$(q -d idcodec_catalog_fresh -c "SELECT count(*) FROM pg_description d JOIN pg_depend x
    ON x.classid = 'pg_proc'::regclass AND x.objid = d.objoid AND x.deptype = 'e'
    JOIN pg_extension e ON e.oid = x.refobjid AND e.extname = 'idcodec' WHERE d.description ~ E'\n'")
if [ "$uncommented" -ne 0 ] || [ "$multiline" -ne 0 ]; then
    echo "functions without a comment: $uncommented, with a comment of several lines: $multiline"
    grep '(no comment)$' <<<"$fresh" || true
    failures=$((failures + 1))
fi
# ... and \df+ shows it.
if ! psql -X -d idcodec_catalog_fresh -c '\df+ hashids_encode' | grep -q 'hashid of a non-negative number'; then
    echo '\df+ does not show the description'; failures=$((failures + 1))
fi

for version in $earlier; do
    db idcodec_catalog_updated
    q -d idcodec_catalog_updated -c "CREATE EXTENSION idcodec VERSION '$version'" -c "ALTER EXTENSION idcodec UPDATE"
    updated=$(describe idcodec_catalog_updated)
    merges idcodec_catalog_updated "$version updated to $current" || true
    if [ "$updated" != "$fresh" ]; then
        echo "$version updated to $current differs from a fresh $current install:"
        diff <(echo "$fresh") <(echo "$updated") | head -n 20 || true
        failures=$((failures + 1))
    else
        echo "$version -> $current: identical"
    fi
done

for d in idcodec_catalog_fresh idcodec_catalog_updated; do q -c "DROP DATABASE IF EXISTS $d"; done
echo "catalog: $failures failures"
[ "$failures" -eq 0 ]
