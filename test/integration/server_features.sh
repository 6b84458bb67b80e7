#!/usr/bin/env bash
# What differs between PostgreSQL majors, as the README documents it. On every major: a STORED generated column
# computed by idcodec, with a unique index that lookups use. On PostgreSQL 18 and later: a generated column is
# virtual unless it says STORED, and the server refuses a virtual one that calls an extension's function (0A000),
# so idcodec's columns must say STORED; the module declares its name and version, which pg_get_loaded_modules()
# shows; uuid_compress() takes the server's own uuidv7() and gives it back.
set -euo pipefail
cd "$(dirname "$0")/../.."
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control)
db=idcodec_server_features
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
d() { q -d "$db" "$@"; }
d -c "CREATE EXTENSION idcodec"
major=$(d -c "SHOW server_version_num")
major=$((major / 10000))
failures=0
check() {  # check WHAT GOT EXPECTED
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1: got '$2', expected '$3'"; failures=$((failures + 1)); fi
}

# hashids.js 2.3.0: 42 with 'customer salt' and min_length 8 is O2JqGW9Y
check "a STORED generated column, looked up by its unique index" "$(d <<'SQL'
CREATE TABLE customer (
    id bigint PRIMARY KEY,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)) STORED UNIQUE
);
INSERT INTO customer SELECT generate_series(1, 10000);
ANALYZE customer;
SELECT id FROM customer WHERE public_id = 'O2JqGW9Y';
EXPLAIN (COSTS OFF) SELECT id FROM customer WHERE public_id = 'O2JqGW9Y';
SQL
)" "42
Index Scan using customer_public_id_key on customer
  Index Cond: (public_id = 'O2JqGW9Y'::text)"

if [ "$major" -ge 18 ]; then
    refused=$(d -v VERBOSITY=sqlstate -c "CREATE TABLE virtual_id (id bigint,
        public_id text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)))" 2>&1 || true)
    check "PostgreSQL $major refuses a virtual generated column calling idcodec" "$refused" "ERROR:  0A000"
    check "pg_get_loaded_modules() shows idcodec and its version" \
        "$(d -c "SELECT hashids_encode(1) IS NOT NULL" \
             -c "SELECT module_name || ' ' || version || ' ' || (file_name ~ '^idcodec') FROM pg_get_loaded_modules()
                 WHERE module_name = 'idcodec'")" "t
idcodec $current true"
    check "uuid_compress(uuidv7()): 22 characters, decompressed to the same version-7 uuid" \
        "$(d -c "SELECT count(*) FILTER (WHERE length(c) = 22 AND uuid_decompress(c) = u
                                          AND uuid_extract_version(u) = 7)
                 FROM (SELECT u, uuid_compress(u) AS c FROM (SELECT uuidv7() AS u FROM generate_series(1, 1000))) g")" \
        "1000"
else
    echo "ok: PostgreSQL $major has stored generated columns only (virtual ones, module versions and uuidv7() come with 18)"
fi
echo "server features of PostgreSQL $major: $failures failures"
[ "$failures" -eq 0 ]
