#!/usr/bin/env bash
# SQL-level benchmark of idcodec (run by `make bench`).
#
# Every row's query is timed ROUNDS times inside one psql session (rounds interleaved across the rows, so a slow
# phase of the machine hits all of them alike); the best (minimum) wall time counts, and its ratio to the row's
# floor is compared with its target. Parallelism and JIT are off, so ratios compare
# single-process work. A verdict of "misses" does not fail the run (a benchmark is not a test); an SQL error does.
#
# Every table stays resident, as a hot production table would: temp_buffers holds all of them (the session checks
# that it does), each source is read once before the first round, and the last column shows, from EXPLAIN (ANALYZE,
# BUFFERS) of each query after the rounds, that its reads were all hits in the session's buffers. Otherwise a
# floor would carry copies from the kernel's page cache that the function rows hide behind their own work.
#
# To add a benchmark: append to BENCH_ROWS below (and to SETUP_SQL if it needs prepared data). BENCH_MAIN=0 or
# BENCH_SCALING=0 leaves out the per-row table or the scaling section, BENCH_SNOWFLAKE=0 the snowflake sessions;
# BENCH_ONLY=regex keeps the rows it matches (with their floors); BENCH_SCALE_MAX_MB caps the largest value.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/setup.sh
source "$HERE/../../scripts/setup.sh"   # also cds to the repo root

ROUNDS=${BENCH_ROUNDS:-5}
# An INSERT row writes, checkpoints and makes its table afresh: its time varies more from round to round than a
# function's, so its best is taken over more rounds.
INSERT_ROUNDS=${BENCH_INSERT_ROUNDS:-15}
# Where the tables for make bench's charts go (test/bench/charts.sh draws them).
CHART_DIR=$IDCODEC_ROOT/${BUILD:-build}/bench
mkdir -p "$CHART_DIR"
rm -f "$CHART_DIR"/ratios.tsv "$CHART_DIR"/scaling.tsv
TEMP_BUFFERS=1536MB  # the tables below take about 1,045 MB (the run prints their size)
ROWS=1000000
SALT='this is my salt'
KEY="'\\x2b7e151628aed2a6abf7158809cf4f3c'"  # an AES-128 key literal (NIST's FF1 samples use it)

INSERT_ROWS=200000
KEY_SQL=$(cat <<SQL
-- A key's cost to write: $INSERT_ROWS rows into an empty table of that key with its primary key index, logged as
-- keys are (the identity's sequence and every index entry go through the WAL). Each call then writes its rows out
-- (a checkpoint: the cluster runs without fsync) and makes the table afresh for the next round, so each key pays
-- for writing its own rows and no INSERT meets a checkpoint made of another's. 'given' is the floor: the same
-- bigint keys given by the INSERT, no generator at all.
CREATE FUNCTION pg_temp.key_table(key text) RETURNS void LANGUAGE plpgsql AS \$table\$
BEGIN
    EXECUTE format('DROP TABLE IF EXISTS %I', 'bench_' || key);
    BEGIN
        CHECKPOINT;
    EXCEPTION WHEN insufficient_privilege THEN
        NULL;  -- a server the benchmark does not own: without the checkpoint
    END;
    EXECUTE format('CREATE TABLE %I (id %s PRIMARY KEY, payload int)', 'bench_' || key,
                   CASE key WHEN 'identity' THEN 'bigint GENERATED ALWAYS AS IDENTITY'
                            WHEN 'snowflake' THEN 'bigint DEFAULT snowflake_generate()'
                            WHEN 'uuid_v7' THEN 'uuid DEFAULT uuid_generate_v7()'
                            WHEN 'ulid' THEN 'ulid DEFAULT gen_ulid()'
                            WHEN 'given' THEN 'bigint' END);
END
\$table\$;
CREATE FUNCTION pg_temp.insert_keys(key text, keep boolean DEFAULT false) RETURNS bigint LANGUAGE plpgsql AS \$insert\$
DECLARE
    inserted bigint;
BEGIN
    EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM generate_series(1, $INSERT_ROWS) g', 'bench_' || key,
                   CASE WHEN key = 'given' THEN 'id, payload' ELSE 'payload' END,
                   CASE WHEN key = 'given' THEN 'g, g' ELSE 'g' END);
    GET DIAGNOSTICS inserted = ROW_COUNT;
    IF NOT keep THEN
        PERFORM pg_temp.key_table(key);
    END IF;
    RETURN inserted;
END
\$insert\$;
SQL
)
# One-time preparation, run in the benchmark session before any timing (temp tables live as long as the session).
# Every table has a bigint column i, so a row reading a table is divided by count(i::text) over the same table: a
# function scan materializes its rows and is slower than a table scan, so each row's floor reads its own source.
SETUP_SQL=$(cat <<SQL
CREATE TEMP TABLE ids AS SELECT i::bigint, hashids_encode(i, '$SALT', 8) AS id FROM generate_series(1, $ROWS) i;
CREATE TEMP TABLE sqids AS SELECT i::bigint, sqids_encode(i) AS id FROM generate_series(1, $ROWS) i;
CREATE TEMP TABLE objectids AS
    SELECT i, o, objectid_compress(o) AS c
    FROM (SELECT i::bigint, substr(md5(i::text) || md5(i::text), 1, 24) AS o FROM generate_series(1, $ROWS) i) AS t;
CREATE TEMP TABLE uuids AS
    SELECT i, u, uuid_compress(u) AS c FROM (SELECT i::bigint, gen_random_uuid() AS u FROM generate_series(1, $ROWS) i) AS t;
CREATE TEMP TABLE base62 AS SELECT i::bigint, base62_encode(i) AS c, base62_mixup(i) AS m FROM generate_series(1, $ROWS) i;
CREATE TEMP TABLE hex AS
    SELECT i, h, hashids_encode_hex(h, '$SALT', 8) AS id
    FROM (SELECT i::bigint, md5(i::text) AS h FROM generate_series(1, $ROWS) i) AS t;
CREATE TEMP TABLE urls AS SELECT i::bigint, 'https://example.com/articles/' || i || '?ref=' || md5(i::text) AS url
    FROM generate_series(1, $ROWS) i;
CREATE TEMP TABLE texts AS SELECT i::bigint, repeat(md5(i::text), 4) AS t FROM generate_series(1, $ROWS / 10) i;
VACUUM (FREEZE, ANALYZE) ids, sqids, objectids, uuids, base62, hex, urls, texts;
-- 64 MB of pseudo-random bytes, stored uncompressed out of line (STORAGE EXTERNAL)
CREATE TEMP TABLE big (data bytea);
ALTER TABLE big ALTER COLUMN data SET STORAGE EXTERNAL;
INSERT INTO big SELECT decode(string_agg(md5(i::text), '' ORDER BY i), 'hex') FROM generate_series(1, 4194304) i;
-- 1 MB for the per-window functions, and 8 KB of text to search
CREATE TEMP TABLE small AS SELECT substr(data, 1, 1048576) AS data FROM big;
CREATE TEMP TABLE haystack AS SELECT string_agg(md5(i::text), ' ') AS t FROM generate_series(1, 250) i;
-- TypeIDs and ULIDs of random UUIDs, and the PL/pgSQL a user writes without idcodec for a ULID's text
CREATE TEMP TABLE time_ids AS SELECT i, u, typeid_encode('user', u) AS t, ulid_encode(u) AS l FROM uuids;
VACUUM (FREEZE, ANALYZE) time_ids;
CREATE FUNCTION pg_temp.plpgsql_ulid(id uuid) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS \$plpgsql\$
DECLARE
    digits constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    bits bit(130) := B'00' || ('x' || replace(id::text, '-', ''))::bit(128);
    result text := '';
BEGIN
    FOR k IN 0..25 LOOP
        result := result || substr(digits, substring(bits FROM 5 * k + 1 FOR 5)::int + 1, 1);
    END LOOP;
    RETURN result;
END
\$plpgsql\$;
-- the ulid and typeid types over the same random UUIDs, with the text forms (uuid's, the ULID's, the TypeID's)
CREATE TEMP TABLE native_ids AS
    SELECT i, u, u::ulid AS l, typeid('user', u) AS t, u::text AS u_text, u::ulid::text AS l_text,
           typeid('user', u)::text AS t_text
    FROM uuids;
VACUUM (FREEZE, ANALYZE) native_ids;
-- the same UUIDs as TypeIDs of twelve prefixes of 0 to 26 letters, in turn
CREATE TEMP TABLE prefixed_ids AS
    SELECT i, u, typeid(p.prefix, u) AS t, typeid(p.prefix, u)::text AS t_text
    FROM uuids JOIN (VALUES (0, ''), (1, 'u'), (2, 'org'), (3, 'user'), (4, 'order'), (5, 'invoice'), (6, 'customer'),
                            (7, 'api_key_scope'), (8, 'payment_method'), (9, 'subscription_item'),
                            (10, 'webhook_delivery_attempt'), (11, 'billing_account_invitation')) AS p(k, prefix)
        ON p.k = i % 12;
VACUUM (FREEZE, ANALYZE) prefixed_ids;
-- a B-tree on an expression of a table, built and dropped again, as one query (the build sorts in
-- maintenance_work_mem, as a user's would)
CREATE FUNCTION pg_temp.btree_build(tab text, expression text) RETURNS int LANGUAGE plpgsql AS \$build\$
BEGIN
    EXECUTE format('CREATE INDEX bench_btree ON %I (%s)', tab, expression);
    DROP INDEX bench_btree;
    RETURN 1;
END
\$build\$;
-- a whole table's values sorted in memory (a quicksort in work_mem; EXPLAIN shows it), counted
CREATE FUNCTION pg_temp.sorted(tab text, expression text) RETURNS bigint LANGUAGE plpgsql SET work_mem = '1GB'
AS \$sorted\$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM (SELECT %s AS v FROM %I ORDER BY 1 OFFSET 0) s', expression, tab) INTO n;
    RETURN n;
END
\$sorted\$;
-- encrypted IDs, and the same numbers encrypted by pgcrypto
CREATE TEMP TABLE crypt_ids AS SELECT i::bigint, idcrypt_encode(i, $KEY::bytea) AS c FROM generate_series(1, $ROWS) i;
VACUUM (FREEZE, ANALYZE) crypt_ids;
-- Key generators: a plain sequence, snowflake_generate() on node 1, and pgEdge's snowflake when it is built.
DROP SEQUENCE IF EXISTS bench_sequence;
CREATE SEQUENCE bench_sequence;
SET idcodec.node_id = 1;
$KEY_SQL
SELECT pg_temp.key_table(key) FROM unnest(ARRAY['given', 'identity', 'snowflake', 'uuid_v7', 'ulid']) AS key \\g /dev/null
SQL
)

GS="generate_series(1, $ROWS) i"
# Benchmark rows: name | floor (the row whose time is the denominator; empty = itself) | target ratio (empty =
# information only) | query. Names must be unique; a floor must be listed before the rows that use it.
BENCH_ROWS=(
    "floor: generate_series|||SELECT count(i::text) FROM $GS"
    "hashids_encode|floor: generate_series|1.25|SELECT count(hashids_encode(i, '$SALT', 8)) FROM $GS"
    "hashids_encode (array of 3)|floor: generate_series||SELECT count(hashids_encode(ARRAY[i, i, i], '$SALT', 8)) FROM $GS"
    "sqids_encode|floor: generate_series|1.25|SELECT count(sqids_encode(i)) FROM $GS"
    "sqids_encode (array of 3)|floor: generate_series||SELECT count(sqids_encode(ARRAY[i, i, i])) FROM $GS"
    "base62_encode|floor: generate_series|1.25|SELECT count(base62_encode(i)) FROM $GS"
    "base62_mixup|floor: generate_series|1.25|SELECT count(base62_mixup(i)) FROM $GS"
    "alphabet_shuffle|floor: generate_series||SELECT count(alphabet_shuffle('abcdefghijklmnopqrstuvwxyz', i::text)) FROM $GS"
    "floor: ids|||SELECT count(i::text) FROM ids"
    "hashids_decode_one|floor: ids|1.25|SELECT count(hashids_decode_one(id, '$SALT', 8)) FROM ids"
    "hashids_decode|floor: ids||SELECT count(hashids_decode(id, '$SALT', 8)) FROM ids"
    "floor: sqids|||SELECT count(i::text) FROM sqids"
    "sqids_decode|floor: sqids||SELECT count(sqids_decode(id)) FROM sqids"
    "sqids_decode canonical|floor: sqids|1.25|SELECT count(sqids_decode(id, canonical => true)) FROM sqids"
    "floor: objectids|||SELECT count(i::text) FROM objectids"
    "objectid_compress|floor: objectids|1.25|SELECT count(objectid_compress(o)) FROM objectids"
    "objectid_decompress|floor: objectids|1.25|SELECT count(objectid_decompress(c)) FROM objectids"
    "objectid_timestamp|floor: objectids|1.25|SELECT count(objectid_timestamp(o)) FROM objectids"
    "encode(decode(o, 'hex'), 'base64')|floor: objectids||SELECT count(encode(decode(o, 'hex'), 'base64')) FROM objectids"
    "floor: uuids|||SELECT count(i::text) FROM uuids"
    "uuid_compress|floor: uuids|1.25|SELECT count(uuid_compress(u)) FROM uuids"
    "uuid_decompress|floor: uuids|1.25|SELECT count(uuid_decompress(c)) FROM uuids"
    "floor: base62|||SELECT count(i::text) FROM base62"
    "base62_decode|floor: base62|1.25|SELECT count(base62_decode(c)) FROM base62"
    "base62_unmixup|floor: base62|1.25|SELECT count(base62_unmixup(m)) FROM base62"
    "floor: hex|||SELECT count(i::text) FROM hex"
    "hashids_encode_hex|floor: hex||SELECT count(hashids_encode_hex(h, '$SALT', 8)) FROM hex"
    "hashids_decode_hex|floor: hex||SELECT count(hashids_decode_hex(id, '$SALT', 8)) FROM hex"
    "md5(url)|||SELECT count(md5(url)) FROM urls"
    "shortcode_candidates|md5(url)|1.2|SELECT count(shortcode_candidates(url)) FROM urls"
    "floor: texts|||SELECT count(i::text) FROM texts"
    "winnow (128 characters)|floor: texts||SELECT count(winnow(t, 5, 4)) FROM texts"
    "rabin_karp_find (8 KB, 1000 calls)|||SELECT count(*) FROM haystack, texts, LATERAL rabin_karp_find(haystack.t, substr(texts.t, 1, 6)) AS f WHERE texts.i <= 1000"
    "rolling_hash rabin_karp 1 MB|||SELECT count(*) FROM small, rolling_hash(small.data, 64)"
    "rolling_hash buzhash 1 MB|||SELECT count(*) FROM small, rolling_hash(small.data, 64, 'buzhash')"
    "detoast 64 MB|||SELECT get_byte(data, 67108863) FROM big"
    "cdc_chunks 64 MB|detoast 64 MB|1.3|SELECT count(*) FROM big, cdc_chunks(big.data)"
    "floor: time_ids|||SELECT count(i::text) FROM time_ids"
    "typeid_encode|floor: time_ids|1.25|SELECT count(typeid_encode('user', u)) FROM time_ids"
    "typeid_decode|floor: time_ids|1.25|SELECT count(typeid_decode(t)) FROM time_ids"
    "ulid_encode|floor: time_ids|1.25|SELECT count(ulid_encode(u)) FROM time_ids"
    "ulid_decode|floor: time_ids|1.25|SELECT count(ulid_decode(l)) FROM time_ids"
    "ulid_timestamp|floor: time_ids||SELECT count(ulid_timestamp(l)) FROM time_ids"
    # The PL/pgSQL base32 a user writes without idcodec, against ulid_encode over the same 100,000 rows (its ratio
    # is how many times slower it is).
    "ulid_encode, 100,000 rows|||SELECT count(ulid_encode(u)) FROM time_ids WHERE i <= 100000"
    "PL/pgSQL ULID of a uuid, 100,000 rows|ulid_encode, 100,000 rows||SELECT count(pg_temp.plpgsql_ulid(u)) FROM time_ids WHERE i <= 100000"
    # The types against uuid's own text I/O over the same rows, a B-tree build over 1M values, and generation
    # against gen_random_uuid() (pgx_ulid's README shows its generator at 0.77 of it).
    "floor: native_ids|||SELECT count(i::text) FROM native_ids"
    "uuid output (u::text)|floor: native_ids||SELECT count(u::text) FROM native_ids"
    "ulid output (l::text)|uuid output (u::text)|1.1|SELECT count(l::text) FROM native_ids"
    "typeid output (t::text)|floor: native_ids||SELECT count(t::text) FROM native_ids"
    "uuid input (text::uuid)|floor: native_ids||SELECT count(u_text::uuid) FROM native_ids"
    "ulid input (text::ulid)|uuid input (text::uuid)|1.1|SELECT count(l_text::ulid) FROM native_ids"
    "typeid input (text::typeid)|floor: native_ids||SELECT count(t_text::typeid) FROM native_ids"
    "B-tree build over 1M uuid|||SELECT pg_temp.btree_build('native_ids', 'u')"
    "B-tree build over 1M ulid|B-tree build over 1M uuid|1.05|SELECT pg_temp.btree_build('native_ids', 'l')"
    # typeid against the same UUIDs and against the same TypeIDs as text in the C collation (the text a typeid
    # replaces), for one prefix ('user') and for twelve of 0 to 26 letters: builds and in-memory sorts
    "B-tree build over 1M TypeIDs as text (C)|B-tree build over 1M uuid||SELECT pg_temp.btree_build('native_ids', 't_text COLLATE \"C\"')"
    "B-tree build over 1M typeid|B-tree build over 1M uuid|1.4|SELECT pg_temp.btree_build('native_ids', 't')"
    "B-tree build over 1M typeid, against text (C)|B-tree build over 1M TypeIDs as text (C)|1.0|SELECT pg_temp.btree_build('native_ids', 't')"
    "B-tree build over 1M uuid (twelve-prefix table)|||SELECT pg_temp.btree_build('prefixed_ids', 'u')"
    "B-tree build over 1M TypeIDs as text (C), twelve prefixes|B-tree build over 1M uuid (twelve-prefix table)||SELECT pg_temp.btree_build('prefixed_ids', 't_text COLLATE \"C\"')"
    "B-tree build over 1M typeid, twelve prefixes|B-tree build over 1M uuid (twelve-prefix table)|1.6|SELECT pg_temp.btree_build('prefixed_ids', 't')"
    "B-tree build over 1M typeid, twelve prefixes, against text (C)|B-tree build over 1M TypeIDs as text (C), twelve prefixes||SELECT pg_temp.btree_build('prefixed_ids', 't')"
    "ORDER BY 1M uuid in memory|||SELECT pg_temp.sorted('native_ids', 'u')"
    "ORDER BY 1M TypeIDs as text (C) in memory|ORDER BY 1M uuid in memory||SELECT pg_temp.sorted('native_ids', 't_text COLLATE \"C\"')"
    "ORDER BY 1M typeid in memory|ORDER BY 1M uuid in memory|1.25|SELECT pg_temp.sorted('native_ids', 't')"
    "ORDER BY 1M typeid in memory, twelve prefixes|ORDER BY 1M uuid in memory||SELECT pg_temp.sorted('prefixed_ids', 't')"
    "gen_random_uuid()|floor: generate_series||SELECT count(gen_random_uuid()) FROM $GS"
    "gen_ulid()|gen_random_uuid()|0.75|SELECT count(gen_ulid()) FROM $GS"
    "uuid_generate_v7()|gen_random_uuid()|0.75|SELECT count(uuid_generate_v7()) FROM $GS"
    "gen_typeid('user')|gen_random_uuid()||SELECT count(gen_typeid('user')) FROM $GS"
    # What a user has without idcodec to encrypt an id: pgcrypto's AES (which gives 16 bytes, no short ID).
    "pgcrypto encrypt(int8send(i), key, 'aes')|floor: generate_series||SELECT count(encrypt(int8send(i), $KEY, 'aes')) FROM $GS"
    "idcrypt_encode|pgcrypto encrypt(int8send(i), key, 'aes')|0.5|SELECT count(idcrypt_encode(i, $KEY::bytea)) FROM $GS"
    "floor: crypt_ids|||SELECT count(i::text) FROM crypt_ids"
    "pgcrypto encrypt (crypt_ids)|floor: crypt_ids||SELECT count(encrypt(int8send(i), $KEY, 'aes')) FROM crypt_ids"
    "idcrypt_decode|pgcrypto encrypt (crypt_ids)|0.5|SELECT count(idcrypt_decode(c, $KEY::bytea)) FROM crypt_ids"
    # Generating 64-bit keys: a plain sequence's nextval() and pgEdge's snowflake (both through a sequence)
    "nextval() of a plain sequence|floor: generate_series||SELECT count(nextval('bench_sequence')) FROM $GS"
    "snowflake_generate()|nextval() of a plain sequence|1.0|SELECT count(snowflake_generate()) FROM $GS"
    # Writing rows by key: the identity key and the v7 uuid key are the ones to beat
    "INSERT 200,000 rows, bigint keys given|||SELECT pg_temp.insert_keys('given')"
    "INSERT 200,000 rows, bigint identity key|||SELECT pg_temp.insert_keys('identity')"
    "INSERT 200,000 rows, uuid_generate_v7() key|||SELECT pg_temp.insert_keys('uuid_v7')"
    "INSERT 200,000 rows, gen_ulid() key|INSERT 200,000 rows, uuid_generate_v7() key||SELECT pg_temp.insert_keys('ulid')"
    "INSERT 200,000 rows, snowflake key|INSERT 200,000 rows, bigint identity key|1.0|SELECT pg_temp.insert_keys('snowflake')"
    "INSERT 200,000 rows, snowflake key against v7|INSERT 200,000 rows, uuid_generate_v7() key|0.95|SELECT pg_temp.insert_keys('snowflake')"
)

if [ -n "${PGHOST:-}" ] && psql -Xqtc 'select 1' >/dev/null 2>&1; then
    log "using the running server at PGHOST=$PGHOST and the idcodec installed there"
else
    build_and_install
    start_cluster
fi

# pgEdge's snowflake, which snowflake_generate() is compared with, built from its source when that is beside the
# checkout (its rows are left out otherwise).
PGEDGE_SETUP=""
pgedge_archive=$(find_peer snowflake-2.6.0.tar.gz)
if [ -n "$pgedge_archive" ]; then
    source "$HERE/../lib/peer_extension_build.sh"
    pgedge_snowflake_install "$pgedge_archive" "$PG_BIN/pg_config" >/dev/null
    PGEDGE_SETUP="CREATE EXTENSION IF NOT EXISTS snowflake; SET snowflake.node = 1;"
    BENCH_ROWS+=(
        "pgEdge snowflake.nextval()|floor: generate_series||SELECT count(snowflake.nextval()) FROM $GS"
        "snowflake_generate() against pgEdge|pgEdge snowflake.nextval()|0.5|SELECT count(snowflake_generate()) FROM $GS"
    )
else
    log "pgEdge snowflake's source (snowflake-2.6.0.tar.gz) is not beside the checkout: its rows are left out"
fi

sql_literal() { printf "'%s'" "${1//\'/\'\'}"; }

# BENCH_ONLY (an extended regular expression) keeps the rows whose names match it, and the floors they are measured
# against.
if [ -n "${BENCH_ONLY:-}" ]; then
    declare -A wanted=()
    for row in "${BENCH_ROWS[@]}"; do
        IFS='|' read -r name floor _ <<<"$row"
        [[ $name =~ $BENCH_ONLY ]] && wanted[$name]=1 && [ -n "$floor" ] && wanted[$floor]=1
    done
    kept=()
    for row in "${BENCH_ROWS[@]}"; do
        IFS='|' read -r name _ <<<"$row"
        [ -z "${wanted[$name]:-}" ] || kept+=("$row")
    done
    BENCH_ROWS=("${kept[@]}")
fi

values=()
ord=0
for row in "${BENCH_ROWS[@]}"; do
    IFS='|' read -r name floor target query <<<"$row"
    ord=$((ord + 1))
    rounds=$ROUNDS
    [[ $name != INSERT* ]] || rounds=$INSERT_ROUNDS
    values+=("($ord, $(sql_literal "$name"), $(sql_literal "${floor:-$name}"), ${target:-NULL}::numeric, $rounds, $(sql_literal "$query"))")
done
values_sql=$(IFS=','; echo "${values[*]}")

# A core call's time in ns (real time of core_bench's benchmark NAME), when the core bench is built.
core_ns() {
    [ -x "${BUILD:-build}/core_bench" ] || return 0
    "${BUILD:-build}/core_bench" --benchmark_filter="^$1\$" --benchmark_min_time=1 --benchmark_format=csv 2>/dev/null |
        awk -F, -v name="$1" '$1 == name || $1 == "\"" name "\"" { print $3 }'
}

if [ "${BENCH_MAIN:-1}" = 1 ]; then
CORE_ENCODE_NS=$(core_ns BM_IdcryptEncode)
CORE_DECODE_NS=$(core_ns BM_IdcryptDecode)
log "benchmarking ${#BENCH_ROWS[@]} queries over $ROWS rows, best of $ROUNDS (the INSERT rows of $INSERT_ROUNDS)"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
SET temp_buffers = '$TEMP_BUFFERS';
SET maintenance_work_mem = '256MB';
SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE EXTENSION IF NOT EXISTS idcodec;
CREATE EXTENSION IF NOT EXISTS pgcrypto;

$SETUP_SQL
$PGEDGE_SETUP

CREATE TEMP TABLE bench (ord int PRIMARY KEY, name text UNIQUE, floor text, target numeric, rounds int, query text,
                         best_ms double precision);
INSERT INTO bench (ord, name, floor, target, rounds, query) VALUES $values_sql;

CREATE TEMP VIEW bench_tables AS
    SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
    WHERE c.relpersistence = 't' AND c.relkind = 'r' AND c.relname <> 'bench';
DO \$fits\$
DECLARE
    tables bigint := (SELECT bytes FROM bench_tables);
    buffers bigint := pg_size_bytes(current_setting('temp_buffers'));
BEGIN
    IF tables > buffers THEN
        RAISE EXCEPTION 'the benchmark tables (% MB) do not fit in temp_buffers (% MB)', tables >> 20, buffers >> 20;
    END IF;
END
\$fits\$;
SELECT bytes >> 20 AS tables_mb FROM bench_tables \gset
\echo benchmark tables: :tables_mb MB, held in temp_buffers of $TEMP_BUFFERS

-- each source read once, so every round finds its table in the buffers
DO \$warm\$
DECLARE
    r record;
    discard record;
BEGIN
    FOR r IN SELECT query FROM bench WHERE floor = name ORDER BY ord LOOP
        EXECUTE r.query INTO discard;
    END LOOP;
END
\$warm\$;

DO \$bench\$
DECLARE
    r record;
    t0 timestamptz;
    ms double precision;
    discard record;
BEGIN
    FOR round IN 1..(SELECT max(rounds) FROM bench) LOOP
        FOR r IN SELECT ord, query FROM bench WHERE rounds >= round ORDER BY ord LOOP
            t0 := clock_timestamp();
            EXECUTE r.query INTO discard;
            ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
            UPDATE bench SET best_ms = least(best_ms, ms) WHERE ord = r.ord;
        END LOOP;
    END LOOP;
END
\$bench\$;

-- each query's reads of the session's buffers (local: temp tables and their TOAST), one more run of it
ALTER TABLE bench ADD COLUMN hits bigint, ADD COLUMN reads bigint;
DO \$buffers\$
DECLARE
    r record;
    plan json;
BEGIN
    FOR r IN SELECT ord, query FROM bench ORDER BY ord LOOP
        EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || r.query INTO plan;
        UPDATE bench SET hits = (plan -> 0 -> 'Plan' ->> 'Local Hit Blocks')::bigint,
                         reads = (plan -> 0 -> 'Plan' ->> 'Local Read Blocks')::bigint
        WHERE ord = r.ord;
    END LOOP;
END
\$buffers\$;

\pset footer off
\echo
SELECT b.name,
       to_char(b.best_ms, 'FM999990.0') AS "best ms",
       to_char(b.best_ms / f.best_ms, 'FM990.00') AS "ratio to floor",
       coalesce('≤ ' || to_char(b.target, 'FM990.00'), '-') AS target,
       CASE WHEN b.target IS NULL THEN '-'
            WHEN b.best_ms / f.best_ms <= b.target THEN 'meets'
            ELSE 'misses' END AS verdict,
       CASE WHEN b.hits + b.reads = 0 THEN '-'
            WHEN b.reads = 0 THEN 'all ' || b.hits || ' hits'
            ELSE b.reads || ' of ' || (b.hits + b.reads) || ' read in' END AS "table blocks"
FROM bench b JOIN bench f ON f.name = b.floor
ORDER BY b.ord;
-- for make bench's chart (test/bench/charts.sh): the rows with a target, last first (gnuplot draws bottom up)
\copy (SELECT b.name, round((b.best_ms / f.best_ms)::numeric, 3), b.target FROM bench b JOIN bench f ON f.name = b.floor WHERE b.target IS NOT NULL ORDER BY b.ord DESC) TO '$CHART_DIR/ratios.tsv'

-- What each form of a time-ordered key takes in a table (pg_column_size of stored values: headers included)
\echo
SELECT round(avg(pg_column_size(u)), 1) AS "uuid", round(avg(pg_column_size(l)), 1) AS "ulid",
       round(avg(pg_column_size(t)), 1) AS "typeid 'user'", round(avg(pg_column_size(u_text)), 1) AS "uuid as text",
       round(avg(pg_column_size(l_text)), 1) AS "ULID as text", round(avg(pg_column_size(t_text)), 1) AS "TypeID as text"
FROM native_ids;

-- What a key takes: each key's table with its primary key holding $INSERT_ROWS rows
SELECT pg_temp.insert_keys(key, keep => true) FROM unnest(ARRAY['identity', 'snowflake', 'uuid_v7', 'ulid']) AS key \\g /dev/null
\echo
SELECT k.key, pg_size_pretty(pg_relation_size(k.t)) AS "table", pg_size_pretty(pg_indexes_size(k.t)) AS "primary key",
       pg_size_pretty(pg_total_relation_size(k.t)) AS "total",
       to_char(pg_total_relation_size(k.t)::numeric / pg_total_relation_size('bench_uuid_v7'), 'FM990.00') AS "/ uuid's"
FROM (VALUES (1, 'bigint identity', 'bench_identity'::regclass), (2, 'snowflake (bigint)', 'bench_snowflake'),
             (3, 'uuid (version 7)', 'bench_uuid_v7'), (4, 'ulid', 'bench_ulid')) AS k(ord, key, t)
ORDER BY k.ord;
DROP TABLE bench_given, bench_identity, bench_snowflake, bench_uuid_v7, bench_ulid;
DROP SEQUENCE bench_sequence;

-- B-tree indexes with duplicates (500 values, each 200 times, as a foreign key column holds them): deduplicated,
-- a ulid index is the size of a uuid index over the same values (target ≤ 1.1×); typeid for comparison
\echo
CREATE TEMP TABLE repeated_ids AS
    SELECT u, u::ulid AS l, typeid('user', u) AS t FROM (SELECT u FROM uuids LIMIT 500) s, generate_series(1, 200);
CREATE INDEX repeated_u ON repeated_ids (u);
CREATE INDEX repeated_l ON repeated_ids (l);
CREATE INDEX repeated_t ON repeated_ids (t);
SELECT pg_size_pretty(pg_relation_size('repeated_u')) AS "uuid index",
       pg_size_pretty(pg_relation_size('repeated_l')) AS "ulid index",
       pg_size_pretty(pg_relation_size('repeated_t')) AS "typeid 'user' index",
       to_char(pg_relation_size('repeated_l')::numeric / pg_relation_size('repeated_u'), 'FM990.00') AS "ulid / uuid",
       '≤ 1.10' AS target,
       CASE WHEN pg_relation_size('repeated_l') <= 1.1 * pg_relation_size('repeated_u') THEN 'meets' ELSE 'misses' END
           AS verdict;

-- The shim's share: a call's cost in SQL (its row less its table's floor, per row) against the same call in the
-- core alone (core_bench, just before this session).
\echo
SELECT s.name, to_char((s.best_ms - f.best_ms) * 1e6 / $ROWS, 'FM99990') AS "SQL ns per call",
       to_char(c.ns, 'FM99990') AS "core ns per call",
       to_char((s.best_ms - f.best_ms) * 1e6 / $ROWS / c.ns, 'FM990.00') AS ratio, '≤ 2.00' AS target,
       CASE WHEN (s.best_ms - f.best_ms) * 1e6 / $ROWS / c.ns <= 2 THEN 'meets' ELSE 'misses' END AS verdict
FROM (VALUES ('idcrypt_encode', 'floor: generate_series', ${CORE_ENCODE_NS:-NULL}::numeric),
             ('idcrypt_decode', 'floor: crypt_ids', ${CORE_DECODE_NS:-NULL}::numeric)) AS c(name, floor, ns)
JOIN bench s ON s.name = c.name JOIN bench f ON f.name = c.floor
WHERE c.ns IS NOT NULL;
SQL
fi

# ---- snowflake_generate() at full demand from 1, 2 and 8 sessions at once: a node hands out at most 4,096 IDs a
# millisecond (4,096,000 a second) and no ID's time is after the clock read just after it (its lead, at most 0 ms;
# the bound documented is 10 ms). Each session takes its IDs in statements of 200,000, each reporting the lead of its
# greatest ID over the clock read as it ends.
snowflake_capacity() {
    local sessions=$1 statements=$2 results started ended session
    results=$(mktemp -d)
    started=$(date +%s%N)
    for session in $(seq 1 "$sessions"); do
        {
            echo "SET idcodec.node_id = 1;"
            for _ in $(seq 1 "$statements"); do
                echo "SELECT count(*), extract(epoch FROM snowflake_timestamp(max(id)) - clock_timestamp()) * 1000
                      FROM (SELECT snowflake_generate() AS id FROM generate_series(1, 200000)) made;"
            done
        } | psql -X -q -At -v ON_ERROR_STOP=1 >"$results/$session" &
    done
    wait
    ended=$(date +%s%N)
    cat "$results"/* | awk -F'|' -v sessions="$sessions" -v ns=$((ended - started)) '
        NF == 2 { ids += $1; if (!seen || $2 > lead) lead = $2; seen = 1 }
        END { rate = ids / (ns / 1e9)
              printf "%-8d | %9d | %7.2f | %9.0f | %14.2f | %.3f\n", sessions, ids, ns / 1e9, rate, rate / 4096000, lead }'
    rm -rf "$results"
}
if [ "${BENCH_SNOWFLAKE:-1}" = 1 ]; then
    log "snowflake_generate() from 1, 2 and 8 sessions at once"
    echo
    echo "sessions |       IDs | seconds |     IDs/s | of 4,096,000/s | largest lead (ms)"
    for sessions in 1 2 8; do snowflake_capacity "$sessions" $((40 / sessions)); done

    # ---- The snowflake key's INSERT against the v7 uuid key's, in turn for 20 rounds (which goes first alternates):
    # each round's ratio, their median and the worst. A call that waits on the disk shows as a round far above. Only
    # the INSERT is timed: each key's table is made afresh (and the one before written out) before its clock starts.
    # Each INSERT's time on the CPU is also counted (Linux's /proc/self/schedstat, its first number, read by the server
    # before and after it): the rest of its time it spent off the CPU, waiting (for the disk, a lock, the clock) or
    # waiting for a core. Where the server cannot read the file, that column shows a dash. A virtual machine's cores
    # also change speed, for seconds at a time, which no count of the guest's shows: so a fixed loop of PL/pgSQL is
    # timed by the clock just before and just after each INSERT (a wait for a core slows it too), and a round whose
    # four timings lie within 10% of each other ran at one speed, as far as they can tell. The median and worst ratio
    # of those rounds are shown beside their count; the verdict is on all rounds (the worst of fewer rounds is lower
    # by itself, so the two are not comparable).
    log "INSERT $INSERT_ROWS rows with a snowflake key against a v7 uuid key, 20 rounds"
    psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET idcodec.node_id = 1;
$KEY_SQL
SELECT pg_temp.key_table(key) FROM unnest(ARRAY['snowflake', 'uuid_v7']) AS key \\g /dev/null
CREATE TEMP TABLE insert_rounds (round int, key text, ms double precision, cpu_ms double precision,
                                 speed_before double precision, speed_after double precision);
CREATE FUNCTION pg_temp.speed_ms() RETURNS double precision LANGUAGE plpgsql AS \$speed\$
DECLARE
    t0 timestamptz := clock_timestamp();
    x bigint := 0;
BEGIN
    FOR i IN 1..300000 LOOP
        x := x + i;
    END LOOP;
    RETURN 1000 * extract(epoch FROM clock_timestamp() - t0);
END
\$speed\$;
CREATE FUNCTION pg_temp.cpu_ns() RETURNS bigint LANGUAGE plpgsql AS \$cpu\$
BEGIN
    RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;  -- not Linux, or not allowed to read it
END
\$cpu\$;
DO \$rounds\$
DECLARE
    t0 timestamptz;
    cpu0 bigint;
    ms double precision;
    cpu_ms double precision;
    speed_before double precision;
    key text;
BEGIN
    FOR round IN 1..20 LOOP
        FOREACH key IN ARRAY CASE WHEN round % 2 = 1 THEN ARRAY['snowflake', 'uuid_v7'] ELSE ARRAY['uuid_v7', 'snowflake'] END LOOP
            PERFORM pg_temp.key_table(key);
            speed_before := pg_temp.speed_ms();
            cpu0 := pg_temp.cpu_ns();
            t0 := clock_timestamp();
            PERFORM pg_temp.insert_keys(key, keep => true);
            ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
            cpu_ms := (pg_temp.cpu_ns() - cpu0) / 1e6;
            INSERT INTO insert_rounds VALUES (round, key, ms, cpu_ms, speed_before, pg_temp.speed_ms());
        END LOOP;
    END LOOP;
END
\$rounds\$;
\\pset footer off
\\echo
SELECT 'INSERT $INSERT_ROWS rows, snowflake key against v7, 20 rounds' AS name,
       to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY ratio), 'FM990.00') AS "median ratio", '≤ 0.95' AS target,
       to_char(max(ratio), 'FM990.00') AS "worst ratio", '≤ 1.05' AS target,
       CASE WHEN percentile_disc(0.5) WITHIN GROUP (ORDER BY ratio) <= 0.95 AND max(ratio) <= 1.05 THEN 'meets'
            ELSE 'misses' END AS verdict,
       string_agg(to_char(ratio, 'FM990.00'), ' ' ORDER BY round) AS "ratio of each round",
       coalesce(to_char(max(s_off), 'FM99990.0'), '-') AS "snowflake: most ms off the CPU",
       coalesce(to_char(max(v_off), 'FM99990.0'), '-') AS "v7: most ms off the CPU",
       to_char(min(s_ms), 'FM99990') || '–' || to_char(max(s_ms), 'FM99990') AS "snowflake ms",
       coalesce(to_char(min(s_cpu), 'FM99990') || '–' || to_char(max(s_cpu), 'FM99990'), '-') AS "... on the CPU",
       to_char(min(slowest / fastest), 'FM990.00') || '–' || to_char(max(slowest / fastest), 'FM990.00')
           AS "fixed loop: slowest ÷ fastest of a round",
       count(*) FILTER (WHERE slowest <= 1.1 * fastest) AS "rounds at one speed",
       coalesce(to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY ratio) FILTER (WHERE slowest <= 1.1 * fastest),
                        'FM990.00'), '-') AS "... their median",
       coalesce(to_char(max(ratio) FILTER (WHERE slowest <= 1.1 * fastest), 'FM990.00'), '-') AS "... their worst"
FROM (SELECT s.round, s.ms / v.ms AS ratio, s.ms - s.cpu_ms AS s_off, v.ms - v.cpu_ms AS v_off, s.ms AS s_ms,
             s.cpu_ms AS s_cpu,
             greatest(s.speed_before, s.speed_after, v.speed_before, v.speed_after) AS slowest,
             least(s.speed_before, s.speed_after, v.speed_before, v.speed_after) AS fastest
      FROM insert_rounds s JOIN insert_rounds v USING (round)
      WHERE s.key = 'snowflake' AND v.key = 'uuid_v7') AS r;
DROP TABLE bench_snowflake, bench_uuid_v7;
SQL

    # ---- The latency of each snowflake_generate() call, from 4 sessions at once, 250,000 calls each: the clock read
    # just before the call and just after it (the clock counts microseconds: 0 is under one). Four busy sessions share
    # this machine's cores, so the scheduler takes a session off its core now and then, in the middle of a call too,
    # and the call then lasts a slice of the scheduler, which is no wait of the generator's. So each call is also
    # bracketed by the kernel's count of the time the backend spent ready to run but waiting for a core (Linux's
    # /proc/self/schedstat, its second number, read by the server just before and just after the call), and the
    # target holds for each call's latency less that wait. A call that sleeps (on the disk, a lock, a latch or the
    # clock) keeps that time: only the scheduler's queue is taken off. A millisecond whose 4,096 IDs were all taken
    # would have made the calls of that moment wait (they got IDs of the millisecond after it); those are counted
    # apart. Where the server cannot read the file, nothing is taken off.
    log "the latency of snowflake_generate(): 4 sessions of 250,000 calls"
    psql -X -q -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS bench_latency" \
        -c "CREATE UNLOGGED TABLE bench_latency (session int, ids bigint[], us double precision[], queued_us double precision[])"
    if psql -X -qAt -c "SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 2) ~ '^[0-9]+$'" 2>/dev/null |
        grep -qx t; then
        queued="split_part(pg_read_file('/proc/self/schedstat'), ' ', 2)::bigint"
    else
        log "the server cannot read /proc/self/schedstat: no call's wait for a core is taken off its latency"
        queued="0::bigint"
    fi
    # (the calls' IDs and times kept in memory in their order, and stored once they are all made; each lateral
    # subquery runs once per call, in order: the count, the call between its clock readings, the count again, and
    # none may be memoized, which would skip calls)
    for session in 1 2 3 4; do
        psql -X -q -v ON_ERROR_STOP=1 -c "SET idcodec.node_id = 1" -c "SET enable_memoize = off" -c "
            INSERT INTO bench_latency
            SELECT $session, array_agg(c.id ORDER BY n), array_agg(extract(epoch FROM c.after - c.before) * 1000000 ORDER BY n),
                   array_agg((a.ns - b.ns) / 1000.0 ORDER BY n)
            FROM generate_series(1, 250000) n,
                 LATERAL (SELECT $queued AS ns WHERE n > 0 OFFSET 0) b,
                 LATERAL (SELECT clock_timestamp() AS before, snowflake_generate() AS id, clock_timestamp() AS after
                          WHERE n > 0 AND b.ns IS NOT NULL OFFSET 0) c,
                 LATERAL (SELECT $queued AS ns WHERE c.id IS NOT NULL OFFSET 0) a" &
    done
    wait
    psql -X -q -v ON_ERROR_STOP=1 <<SQL
\\pset footer off
\\echo
CREATE TEMP TABLE calls AS
    SELECT c.* FROM bench_latency b, unnest(b.ids, b.us, b.queued_us) AS c(id, us, queued_us);
CREATE TEMP TABLE full_ms AS SELECT id >> 22 AS ms FROM calls GROUP BY id >> 22 HAVING count(*) = 4096;
SELECT 'snowflake_generate() latency, 4 sessions' AS name, count(*) AS calls,
       to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY us), 'FM999990') AS "p50 us",
       to_char(percentile_disc(0.99) WITHIN GROUP (ORDER BY us), 'FM999990') AS "p99 us",
       to_char(max(us), 'FM999990') AS "max us",
       count(*) FILTER (WHERE queued_us > 0) AS "calls that waited for a core",
       count(*) FILTER (WHERE waited) AS "calls after a full ms",
       coalesce(to_char(max(greatest(us - queued_us, 0)) FILTER (WHERE NOT waited), 'FM999990'), '-')
           AS "max us less the wait for a core",
       '≤ 5000' AS target,
       CASE WHEN max(greatest(us - queued_us, 0)) FILTER (WHERE NOT waited) <= 5000 THEN 'meets' ELSE 'misses' END
           AS verdict
FROM (SELECT us, queued_us, (id >> 22) - 1 IN (SELECT ms FROM full_ms) AS waited FROM calls) l;
DROP TABLE bench_latency;
SQL
fi

[ "${BENCH_SCALING:-1}" = 1 ] || exit 0

# ---- Scaling: each family at doubling sizes, the time per unit at each size and its ratio to the size before. A
# ratio above 1.3 is a finding. Queries take their variable argument as a parameter ($1), as an application's
# prepared statement would, so it is a constant of the query like a literal.
SCALE_MAX_MB=${BENCH_SCALE_MAX_MB:-1000}
SCALE_ROUNDS=${BENCH_SCALE_ROUNDS:-5}
scale_rows=()   # family | size | unit | units | query | parameter (an SQL expression, or empty)
for n in 1 2 4 8 16 32 64 128 256 512 1024; do
    calls=$((131072 / n))
    scale_rows+=("hashids_encode, numbers per ID|$n|number|$((calls * n))|SELECT count(hashids_encode(a[1:$n], '$SALT')) FROM arr, generate_series(1, $calls)|")
done
for m in 1000 2000 4000 8000 16000 32000 64000 128000 256000 512000 1000000; do
    calls=$((16000000 / m))
    scale_rows+=("hashids_encode, min_length|$m|character|$((calls * m))|SELECT count(hashids_encode(i, '$SALT', $m)) FROM generate_series(1, $calls) i|")
done
for w in 10 100 1000 10000 20000 40000 80000 100000; do
    scale_rows+=("sqids_encode, blocklist words (cached)|$w|call|100000|SELECT count(sqids_encode(i, blocklist => \$1)) FROM generate_series(1, 100000) i|(SELECT words FROM blocklists WHERE n = $w)")
done
for k in 1 10 100 1000 2000 4000 8000 10000; do
    scale_rows+=("rabin_karp_find, needles over 1 MB|$k|MB scanned|20|SELECT count(*) FROM haystack_1mb, generate_series(1, 20), rabin_karp_find(haystack_1mb.t, \$1)|(SELECT words FROM needle_sets WHERE n = $k)")
done
for mb in 1 2 4 8 16 32 64 128 256 512 1000; do
    [ "$mb" -le "$SCALE_MAX_MB" ] || continue
    scale_rows+=("cdc_chunks|$mb MB|MB|$mb|SELECT count(*) FROM blobs, cdc_chunks(blobs.data) WHERE blobs.mb = $mb|")
    [ "$mb" -le 256 ] && scale_rows+=("winnow|$mb MB|MB|$mb|SELECT cardinality(winnow(t, 5, 4)) FROM texts_mb WHERE mb = $mb|")
done
scale_values=()
ord=0
for row in "${scale_rows[@]}"; do
    IFS='|' read -r family size unit units query parameter <<<"$row"
    ord=$((ord + 1))
    scale_values+=("($ord, $(sql_literal "$family"), $(sql_literal "$size"), $(sql_literal "$unit"), $units, $(sql_literal "$query"), $(sql_literal "$parameter"))")
done
scale_sql=$(IFS=','; echo "${scale_values[*]}")
blob_sizes=$(printf '%s\n' 1 2 4 8 16 32 64 128 256 512 1000 | awk -v max="$SCALE_MAX_MB" '$1 <= max' | paste -sd, -)

log "scaling: ${#scale_rows[@]} queries at doubling sizes (up to $SCALE_MAX_MB MB), best of $SCALE_ROUNDS"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET work_mem = '256MB';
CREATE TEMP TABLE arr AS SELECT array_agg(x::bigint ORDER BY x) AS a FROM generate_series(1, 1024) x;
CREATE TEMP TABLE blocklists AS
    SELECT n, (SELECT array_agg(substr(md5(w::text), 1, 4 + w % 2)) FROM generate_series(1, n) w) AS words
    FROM unnest(ARRAY[10, 100, 1000, 10000, 20000, 40000, 80000, 100000]) n;
-- needles of 4 to 11 letters g-v, which the hexadecimal haystack never contains: the scan alone is measured
CREATE TEMP TABLE needle_sets AS
    SELECT n, (SELECT array_agg(translate(substr(md5(w::text), 1, 4 + w % 8), '0123456789abcdef', 'ghijklmnopqrstuv'))
               FROM generate_series(1, n) w) AS words
    FROM unnest(ARRAY[1, 10, 100, 1000, 2000, 4000, 8000, 10000]) n;
CREATE TEMP TABLE haystack_1mb AS SELECT string_agg(md5(i::text), '') AS t FROM generate_series(1, 32768) i;
-- values of 1 MB to $SCALE_MAX_MB MB, stored uncompressed out of line: 1 MB of pseudo-random bytes repeated
CREATE TEMP TABLE block_1mb AS SELECT decode(string_agg(md5(i::text), '' ORDER BY i), 'hex') AS b FROM generate_series(1, 65536) i;
CREATE TEMP TABLE blobs (mb int, data bytea);
ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL;
INSERT INTO blobs SELECT mb, (SELECT string_agg(b, ''::bytea) FROM block_1mb, generate_series(1, mb)) FROM unnest(ARRAY[$blob_sizes]) mb;
CREATE TEMP TABLE texts_mb AS
    SELECT mb, repeat((SELECT string_agg(md5(i::text), ' ') FROM generate_series(1, 31776) i), mb) AS t
    FROM unnest(ARRAY[$blob_sizes]) mb WHERE mb <= 256;

CREATE TEMP TABLE scale (ord int PRIMARY KEY, family text, size text, unit text, units bigint, query text,
                         parameter text, best_ms double precision);
INSERT INTO scale (ord, family, size, unit, units, query, parameter) VALUES $scale_sql;

DO \$scale\$
DECLARE
    r record;
    t0 timestamptz;
    ms double precision;
    discard record;
    argument text[];
BEGIN
    FOR round IN 1..$SCALE_ROUNDS LOOP
        FOR r IN SELECT ord, query, parameter FROM scale ORDER BY ord LOOP
            t0 := clock_timestamp();
            IF r.parameter = '' THEN
                EXECUTE r.query INTO discard;
            ELSE
                EXECUTE r.parameter INTO argument;
                t0 := clock_timestamp();
                EXECUTE r.query INTO discard USING argument;
            END IF;
            ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
            UPDATE scale SET best_ms = least(best_ms, ms) WHERE ord = r.ord;
        END LOOP;
    END LOOP;
END
\$scale\$;

\pset footer off
\echo
SELECT family, size, to_char(best_ms, 'FM999990.0') AS "best ms",
       to_char(1e6 * best_ms / units, 'FM999999990.0') || ' ns / ' || unit AS "per unit",
       coalesce(to_char((best_ms / units) / lag(best_ms / units) OVER w, 'FM990.00'), '-') AS "ratio to previous size",
       CASE WHEN (best_ms / units) / lag(best_ms / units) OVER w > 1.3 THEN 'finding' ELSE '' END AS note
FROM scale WINDOW w AS (PARTITION BY family ORDER BY ord)
ORDER BY ord;
\copy (SELECT family, split_part(size, ' ', 1)::numeric, round((1e6 * best_ms / units)::numeric, 2) FROM scale ORDER BY ord) TO '$CHART_DIR/scaling.tsv'
SQL
exit 0
