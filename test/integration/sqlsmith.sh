#!/usr/bin/env bash
# SQL-level fuzzing with Debian's sqlsmith against a database shaped like real use (public-id columns, the short-URL
# schema, the dedup store, documents with winnow fingerprints), on a cluster of its own. TAP: no backend crashed, no
# internal error (XX000) was raised from idcodec's code, and sqlsmith generated queries; how many called an idcodec
# function is a diagnostic. IDCODEC_SQLSMITH_SECONDS (default 60) bounds the run; `make sqlsmith SQLSMITH_SECONDS=N`
# runs a long one. Set IDCODEC_SQLSMITH_PORT to fuzz an already running server instead (the sanitizer run does).
source "$(dirname "$0")/../lib/suite.sh"
seconds=${IDCODEC_SQLSMITH_SECONDS:-60}
if ! command -v sqlsmith >/dev/null; then
    env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sqlsmith >/dev/null 2>&1 ||
        tap_skip_all "sqlsmith: Debian's sqlsmith package could not be installed"
fi
source test/lib/cluster.sh
if [ -n "${IDCODEC_SQLSMITH_PORT:-}" ]; then
    port=$IDCODEC_SQLSMITH_PORT
    server_log=${IDCODEC_SQLSMITH_LOG:?the server log of that server}
else
    port=$(free_port)
    cluster_start sqlsmith "$port" "log_error_verbosity=verbose" "log_min_error_statement=panic" >&2
    server_log=$CLUSTERS/sqlsmith.log
fi
started=$(cluster_psql "$port" -d postgres -c "SELECT pg_postmaster_start_time()")
cluster_psql "$port" -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS smith" -c "DROP ROLE IF EXISTS smith" \
    -c "CREATE ROLE smith LOGIN" -c "CREATE DATABASE smith OWNER smith" >&2
cluster_psql "$port" -d smith -U smith >&2 <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION idcodec;
CREATE EXTENSION idcodec_pg_hashids;
CREATE TABLE customer (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text,
    hashid text GENERATED ALWAYS AS (hashids_encode(id, 'smith', 8)) STORED,
    sqid text GENERATED ALWAYS AS (sqids_encode(id)) STORED,
    legacy_id text GENERATED ALWAYS AS (id_encode(id, 'legacy')) STORED,
    mongo_id text, ref uuid);
INSERT INTO customer (name, mongo_id, ref)
SELECT 'customer ' || i, left(md5(i::text), 24), md5((-i)::text)::uuid FROM generate_series(1, 200) i;
CREATE VIEW public_customer AS SELECT hashid, sqid, objectid_compress(mongo_id) AS mongo, uuid_compress(ref) AS ref, name
FROM customer;
CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL, attempt int, hits bigint DEFAULT 0);
INSERT INTO url_code SELECT (shortcode_candidates(u))[1], u, 0 FROM (SELECT 'https://example.com/' || i AS u FROM generate_series(1, 100) i) s
ON CONFLICT DO NOTHING;
CREATE TABLE chunk (digest bytea PRIMARY KEY, data bytea);
CREATE TABLE document (id int PRIMARY KEY, body text, content bytea, fingerprints bigint[]);
INSERT INTO document SELECT i, repeat('lorem ipsum dolor ' || i, 20), decode(repeat(md5(i::text), 64), 'hex'), NULL
FROM generate_series(1, 50) i;
UPDATE document SET fingerprints = winnow(body, 5, 4);
INSERT INTO chunk SELECT DISTINCT ON (c.digest) c.digest, substr(d.content, c.start::int + 1, c.length)
FROM document d, cdc_chunks(d.content, 'fastcdc', 64, 256, 1024, digest => 'sha256') c;
CREATE INDEX ON document USING gin (fingerprints);
ANALYZE customer, url_code, chunk, document;
SQL

functions=$(cluster_psql "$port" -d smith -c "SELECT string_agg(DISTINCT p.proname, '|')
    FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('idcodec', 'idcodec_pg_hashids')")
work=$(mktemp -d)
trap 'rm -rf "$work"; cluster_stop_all' EXIT
log_before=$(wc -c < "$server_log")
timeout --signal=INT "$seconds" sqlsmith --target="host=localhost port=$port dbname=smith user=smith" --seed="$RANDOM" \
    --exclude-catalog --dump-all-queries >"$work/queries" 2>"$work/sqlsmith.err" || true
# each query ends with ';' at the end of its last line
queries=$(awk 'BEGIN { RS = ";\n" } /[a-z]/ { n++ } END { print n + 0 }' "$work/queries")
calling=$(awk -v re="($functions)\\(" 'BEGIN { RS = ";\n" } $0 ~ re { n++ } END { print n + 0 }' "$work/queries")
tail -c +"$((log_before + 1))" "$server_log" > "$work/server.log"

crashed=no
if [ "$(cluster_psql "$port" -d postgres -c "SELECT pg_postmaster_start_time()" 2>/dev/null)" != "$started" ] ||
   grep -qE 'terminated by signal|was terminated by exception' "$work/server.log"; then
    crashed=yes
fi
if [ $crashed = no ]; then
    tap_ok "no backend crashed"
else
    tap_not_ok "no backend crashed" \
        "$(grep -E -B2 -A8 'terminated by signal|terminated by exception' "$work/server.log" | head -n 40)"
fi
# an internal error whose location is in idcodec's sources
internal=$(grep -A2 'ERROR:  XX000' "$work/server.log" | grep -cE 'LOCATION: .*(src/pg/|src/core/|bridge\.cpp)' || true)
if [ "$internal" -eq 0 ]; then
    tap_ok "idcodec raised no internal error (XX000)"
else
    tap_not_ok "idcodec raised no internal error (XX000): it raised $internal" \
        "$(grep -A2 'ERROR:  XX000' "$work/server.log" | head -n 20)"
fi
if [ "$queries" -gt 0 ]; then
    tap_ok "sqlsmith generated queries ($queries)"
else
    tap_not_ok "sqlsmith generated queries" "$(tail -n 5 "$work/sqlsmith.err")"
fi
errors=$(grep -c 'ERROR:' "$work/server.log" || true)
tap_diag "sqlsmith: $seconds s, $queries queries, $calling of them calling an idcodec function, $errors SQL errors" \
     "($internal internal from idcodec), crashed: $crashed"
tap_done
