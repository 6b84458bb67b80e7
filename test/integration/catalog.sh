#!/usr/bin/env bash
# A fresh install of the current version and an install of every earlier version updated with ALTER EXTENSION
# UPDATE have identical catalogs: each function's signature, argument names and defaults, result, volatility,
# strictness, parallel safety, cost and rows, C symbol and library, and comment; each operator's function,
# commutator, negator, estimators, HASHES and MERGES; each operator class; every member of every operator family. Every function has a one-line
# comment (what \df+ shows).
set -euo pipefail
cd "$(dirname "$0")/../.."
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control)
earlier=$(ls idcodec--*--*.sql | sed -E 's/^idcodec--([0-9.]+)--.*/\1/' | sort -uV)
failures=0

describe() {
    q -d "$1" <<'SQL'
SELECT e.extversion FROM pg_extension e WHERE e.extname = 'idcodec';
SELECT concat_ws(' | ', p.oid::regprocedure::text COLLATE "C", coalesce(array_to_string(p.proargnames, ','), '-'),
                 pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prokind, p.provolatile,
                 p.proisstrict, p.proparallel, p.procost, p.prorows, p.proretset, p.prosrc, p.probin,
                 p.prosecdef, p.proleakproof, coalesce(array_to_string(p.proconfig, ','), '-'),
                 coalesce(obj_description(p.oid, 'pg_proc'), '(no comment)')) AS function
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY function;
-- its operators, and every member of its operator families (the planner's view of the types)
SELECT concat_ws(' | ', o.oid::regoperator::text COLLATE "C", o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator,
                 o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge) AS operator
FROM pg_operator o
JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY operator;
SELECT concat_ws(' | ', c.opcname COLLATE "C", m.amname, c.opcintype::regtype, c.opcdefault, f.opfname, c.opckeytype::regtype)
       AS operator_class
FROM pg_opclass c JOIN pg_am m ON m.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
ORDER BY operator_class;
WITH families AS (
    SELECT f.oid, f.opfname, m.amname FROM pg_opfamily f JOIN pg_am m ON m.oid = f.opfmethod
    JOIN pg_depend d ON d.classid = 'pg_opfamily'::regclass AND d.objid = f.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec')
SELECT member FROM (
    SELECT concat_ws(' | ', f.opfname COLLATE "C", f.amname, 'operator', a.amopstrategy, a.amoplefttype::regtype,
                     a.amoprighttype::regtype, a.amopopr::regoperator, a.amoppurpose, a.amopsortfamily) AS member
    FROM pg_amop a JOIN families f ON f.oid = a.amopfamily
    UNION ALL
    SELECT concat_ws(' | ', f.opfname COLLATE "C", f.amname, 'function', p.amprocnum, p.amproclefttype::regtype,
                     p.amprocrighttype::regtype, p.amproc::regprocedure)
    FROM pg_amproc p JOIN families f ON f.oid = p.amprocfamily) members
ORDER BY member;
-- anything else the extension owns
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) COLLATE "C" AS object
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE d.deptype = 'e' AND d.classid <> 'pg_proc'::regclass ORDER BY object;
SQL
}

db() {
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
}

db idcodec_catalog_fresh
q -d idcodec_catalog_fresh -c "CREATE EXTENSION idcodec"
fresh=$(describe idcodec_catalog_fresh)
echo "$current: $(($(wc -l <<<"$fresh") - 1)) functions, operators, operator classes, family members and other objects in a fresh install"

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
    if [ "$updated" != "$fresh" ]; then
        echo "$version updated to $current differs from a fresh $current install:"
        diff <(echo "$fresh") <(echo "$updated") | head -n 20
        failures=$((failures + 1))
    else
        echo "$version -> $current: identical"
    fi
done

for d in idcodec_catalog_fresh idcodec_catalog_updated; do q -c "DROP DATABASE IF EXISTS $d"; done
echo "catalog: $failures failures"
[ "$failures" -eq 0 ]
