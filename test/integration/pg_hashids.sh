#!/usr/bin/env bash
# Coming from pg_hashids: against a real pg_hashids 1.3 built from its source, a database with a 100,000-row table
# with a generated id_encode column, an expression index, a view and a SQL function is taken over in place by
# CREATE EXTENSION idcodec_pg_hashids CASCADE. Afterwards: the same function OIDs, DROP EXTENSION pg_hashids
# (without CASCADE) succeeds, no function refers to pg_hashids's library, the stored IDs equal freshly computed
# ones, new rows get the IDs pg_hashids gave, every recorded pg_hashids result (where pg_hashids is right) is
# reproduced, and the index is still used. Needs pg_hashids-1.3.tar.gz beside the checkout (or in $IDCODEC_PEERS).
source "$(dirname "$0")/../lib/suite.sh"
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
archive=$(find_peer pg_hashids-1.3.tar.gz)
if [ -z "$archive" ]; then
    tap_skip_all "pg_hashids migration: the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout"
fi

# Build and install pg_hashids once per installation.
source test/lib/peer_extension_build.sh
pg_hashids_install "$archive" "$PG_BIN/pg_config" >&2
suite_cluster

db=idcodec_pg_hashids_migration
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
q -d $db <<'SQL'
CREATE EXTENSION pg_hashids;
CREATE TABLE account (id bigint PRIMARY KEY, public_id text GENERATED ALWAYS AS (id_encode(id, 'account salt', 8)) STORED);
INSERT INTO account SELECT g FROM generate_series(1, 100000) g;
CREATE INDEX account_by_public_id ON account (id_decode_once(public_id, 'account salt', 8));
CREATE VIEW account_public AS
    SELECT id, id_encode(id, 'view salt') AS short_id, hash_encode(id, 'old salt', 5) AS legacy_id FROM account;
CREATE FUNCTION account_of(public_id text) RETURNS bigint LANGUAGE sql IMMUTABLE
BEGIN ATOMIC SELECT id_decode_once(public_id, 'account salt', 8); END;
ANALYZE account;

-- What pg_hashids gives, recorded before the takeover, on inputs where it is right: non-negative numbers, ASCII
-- salts and alphabets without whitespace, IDs made by its own id_encode with the same settings.
CREATE TABLE expected (call text PRIMARY KEY, result text);
INSERT INTO expected
SELECT format('id_encode(%s, %L, %s, %L)', n, s, m, a), id_encode(n, s, m, a)
FROM generate_series(0, 60) i, LATERAL (SELECT (i * 7919)::bigint * power(10, i % 13)::bigint AS n) num,
     unnest(ARRAY['', 'salt', 'a much longer salt of many words']) s, unnest(ARRAY[0, 1, 12]) m,
     unnest(ARRAY['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890', '0123456789abcdef',
                  'cfhistuCFHISTU0123456789']) a
ON CONFLICT DO NOTHING;
INSERT INTO expected
SELECT format('id_encode(%L::bigint[], %L, %s)', arr, s, m), id_encode(arr, s, m)
FROM generate_series(1, 40) i, LATERAL (SELECT ARRAY(SELECT (i * j * 104729)::bigint FROM generate_series(1, 1 + i % 5) j) AS arr) x,
     unnest(ARRAY['', 'salt']) s, unnest(ARRAY[0, 20]) m
ON CONFLICT DO NOTHING;
INSERT INTO expected
SELECT format('%s(%L, %L, %s)', f, h, s, m2),
       CASE f WHEN 'id_decode' THEN id_decode(h, s, m2)::text WHEN 'id_decode_once' THEN id_decode_once(h, s, m2)::text
              ELSE hash_decode(h, s, m2)::text END
-- decoded with the min_length it was made with, and with others (pg_hashids skips to the first guard either way)
FROM generate_series(1, 60) i, unnest(ARRAY['', 'salt']) s, unnest(ARRAY[1, 8, 30]) m, unnest(ARRAY[1, 8, 30]) m2,
     LATERAL (SELECT id_encode(ARRAY[(i * 31337)::bigint, i], s, m) AS multi, id_encode((i * 31337)::bigint, s, m) AS one) e,
     unnest(ARRAY[e.multi, e.one]) h, unnest(ARRAY['id_decode', 'id_decode_once', 'hash_decode']) f
ON CONFLICT DO NOTHING;
INSERT INTO expected
SELECT format('%s(%s)', f, n), CASE f WHEN 'id_encode' THEN id_encode(n) ELSE hash_encode(n) END
FROM generate_series(0, 2000, 7) n, unnest(ARRAY['id_encode', 'hash_encode']) f;
-- the rows inserted after the takeover
INSERT INTO expected SELECT format('account %s', g), id_encode(g, 'account salt', 8) FROM generate_series(100001, 100500) g;
CREATE TABLE oids AS SELECT p.oid, p.oid::regprocedure::text AS signature FROM pg_proc p
    JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e' JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_hashids';
SQL
recorded=$(q -d $db -c "SELECT count(*) FROM expected")
functions=$(q -d $db -c "SELECT count(*) FROM oids")

# The takeover.
q -d $db -c "SET client_min_messages = warning" -c "CREATE EXTENSION idcodec_pg_hashids CASCADE" -c "DROP EXTENSION pg_hashids"

# in_db SQL: its result in the migrated database, or its error
in_db() { q -d $db -c "$1" 2>&1; }
check "the $functions pg_hashids functions kept their OIDs, now in idcodec_pg_hashids" \
    "$(in_db "SELECT count(*) FROM oids o JOIN pg_proc p ON p.oid = o.oid AND p.oid::regprocedure::text = o.signature
     JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e' JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec_pg_hashids'")" "$functions"
check "pg_hashids is gone and no function refers to its library" \
    "$(in_db "SELECT count(*) FROM pg_extension WHERE extname = 'pg_hashids' UNION ALL SELECT count(*) FROM pg_proc WHERE probin LIKE '%pg_hashids%'")" $'0\n0'
check "100000 stored IDs equal freshly computed ones" \
    "$(in_db "SELECT count(*) FILTER (WHERE public_id = id_encode(id, 'account salt', 8)) FROM account")" 100000
q -d $db -c "INSERT INTO account SELECT g FROM generate_series(100001, 100500) g"
check "500 new rows get the IDs pg_hashids gave" \
    "$(in_db "SELECT count(*) FROM account a JOIN expected e ON e.call = 'account ' || a.id AND e.result = a.public_id")" 500
mismatches=$(q -d $db 2>&1 <<'SQL'
DO $$
DECLARE r record; got text; bad int := 0;
BEGIN
    FOR r IN SELECT * FROM expected WHERE call NOT LIKE 'account %' LOOP
        EXECUTE 'SELECT (' || r.call || ')::text' INTO got;
        IF got IS DISTINCT FROM r.result THEN
            bad := bad + 1;
            IF bad <= 5 THEN RAISE NOTICE '% gives %, pg_hashids gave %', r.call, got, r.result; END IF;
        END IF;
    END LOOP;
    RAISE NOTICE 'mismatches: %', bad;
END $$;
SQL
) || true
if [[ $mismatches == *'mismatches: 0'* ]]; then
    tap_ok "all $recorded recorded pg_hashids results reproduced"
else
    tap_not_ok "all $recorded recorded pg_hashids results reproduced" "$mismatches"
fi
plan=$(q -d $db -c "EXPLAIN (COSTS OFF) SELECT id FROM account WHERE id_decode_once(public_id, 'account salt', 8) = 4242")
if grep -q account_by_public_id <<<"$plan"; then
    tap_ok "the expression index is still used"
else
    tap_not_ok "the expression index is still used" "$plan"
fi
check "the index finds the row" \
    "$(in_db "SELECT id FROM account WHERE id_decode_once(public_id, 'account salt', 8) = 4242")" 4242
check "the view and the SQL function keep working" \
    "$(in_db "SELECT count(*) FROM account_public WHERE short_id = id_encode(id, 'view salt') AND legacy_id = hash_encode(id, 'old salt', 5)
     UNION ALL SELECT account_of(public_id) FROM account WHERE id = 77")" $'100500\n77'

q -c "DROP DATABASE $db"
tap_done
