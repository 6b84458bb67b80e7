#!/usr/bin/env bash
# idcodec on a real Citus cluster: a coordinator and two workers on local ports, Citus built from its source once per
# machine. Checks, with exact expected results: the extension reaches every node on CREATE and on UPDATE, and a
# database owner who is not a superuser can install it; distributed tables with hashids, sqids and ObjectId public
# IDs hold exactly the single-node values, a 1M-row INSERT ... SELECT computes them on the workers, and a lookup
# by decoded public ID is a router query; tables distributed by ulid and typeid keys spread over the shards, take
# generated keys, route lookups by key and answer time ranges, min/max and joins; the short-URL service distributed
# by code shortens (with its retry), resolves and counts hits; the dedup store distributed (files by name, chunks by
# digest) chunks on the workers and restores every file byte for byte. Prints the timings of the insert and the chunking, Citus against one node.
# Runs on the PostgreSQL of $PG_BIN with its Citus (test/lib/citus_build.sh: 13.2.2 on 15, 14.0.1 on 16-18), whose
# source must be beside the checkout or in $IDCODEC_PEERS.
# IDCODEC_CITUS_CHUNK_MB sets how much data the chunking measurement spreads over files (default 64).
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/citus_build.sh
source test/lib/citus_cluster.sh
source test/lib/versions.sh
citus_cluster_require
if citus_cluster_start >&2; then
    tap_ok "a Citus $(citus_release) cluster starts: a coordinator and two workers"
else
    tap_not_ok "a Citus $(citus_release) cluster starts: a coordinator and two workers"; tap_done || true; exit 1
fi
versions() {
    citus_per_node "SELECT coalesce((SELECT extversion FROM pg_extension WHERE extname = 'idcodec'), 'none')" | paste -sd' '
}
current=$(idcodec_current)
oldest=$(idcodec_oldest)

# ---- the extension on every node
c -c "CREATE EXTENSION idcodec VERSION '$oldest'"
check "CREATE EXTENSION on the coordinator reaches both workers" "$(versions)" "$oldest $oldest $oldest"
c -c "ALTER EXTENSION idcodec UPDATE"
check "ALTER EXTENSION idcodec UPDATE reaches both workers" "$(versions)" "$current $current $current"
# Where Citus does not propagate the update (here: DDL propagation off in the session), it is run on the workers.
previous=$(idcodec_previous)
c -c "DROP EXTENSION idcodec" -c "CREATE EXTENSION idcodec VERSION '$previous'"
c -c "SET citus.enable_ddl_propagation = off" -c "ALTER EXTENSION idcodec UPDATE"
check "with DDL propagation off, ALTER EXTENSION UPDATE updates the coordinator only" "$(versions)" \
    "$current $previous $previous"
check "... and the same command again on the coordinator, with propagation on, updates the workers" \
    "$(c -c "ALTER EXTENSION idcodec UPDATE" 2>&1) $(versions)" \
    "NOTICE:  version \"$current\" of extension \"idcodec\" is already installed $current $current $current"
# (or on each worker, where Citus refuses the command unless propagation is off in that session)
c -c "DROP EXTENSION idcodec" -c "CREATE EXTENSION idcodec VERSION '$previous'"
c -c "SET citus.enable_ddl_propagation = off" -c "ALTER EXTENSION idcodec UPDATE"
check "... or on each worker: refused in a session with propagation on, run in one with propagation off" \
    "$(c -c "SELECT string_agg(result, ', ') FROM run_command_on_workers('ALTER EXTENSION idcodec UPDATE')")
$(c -c "SELECT string_agg(result, ', ') FROM run_command_on_workers('SET citus.enable_ddl_propagation = off; ALTER EXTENSION idcodec UPDATE')") $(versions)" \
    "ERROR:  operation is not allowed on this node, ERROR:  operation is not allowed on this node
SET, SET $current $current $current"
c -c "DROP EXTENSION idcodec"
check "DROP EXTENSION reaches both workers" "$(versions)" "none none none"
# (and on the schema it installs into: idcodec's scripts refuse a schema the installing role may not create in)
c -c "CREATE ROLE app_owner LOGIN" -c "GRANT CREATE ON DATABASE postgres TO app_owner" \
  -c "GRANT CREATE ON SCHEMA public TO app_owner"
owner_try=$(cluster_psql "$coordinator" -U app_owner -d postgres -c "CREATE EXTENSION idcodec" 2>&1 && echo installed || true)
check "a non-superuser with CREATE on the database and its schema installs it (trusted), on every node" \
    "$(tail -n 1 <<<"$owner_try") $(versions)" "installed $current $current $current"
check "the extension belongs to that role" \
    "$(c -c "SELECT extowner::regrole FROM pg_extension WHERE extname = 'idcodec'")" "app_owner"

# ---- distributed public IDs
c >/dev/null <<'SQL'
CREATE TABLE numbers (id bigint PRIMARY KEY);
SELECT create_distributed_table('numbers', 'id');
INSERT INTO numbers SELECT generate_series(1, 1000000);
CREATE TABLE public_id (id bigint PRIMARY KEY, hashid text, sqid text, objectid text);
SELECT create_distributed_table('public_id', 'id', colocate_with => 'numbers');
CREATE TABLE account (
    id bigint PRIMARY KEY,
    hashid text GENERATED ALWAYS AS (hashids_encode(id, 'citus accounts', 8)) STORED,
    sqid text GENERATED ALWAYS AS (sqids_encode(id, min_length => 6)) STORED,
    objectid text GENERATED ALWAYS AS (objectid_compress(lpad(to_hex(id), 24, '0'))) STORED
);
SELECT create_distributed_table('account', 'id', colocate_with => 'numbers');
-- the same on one node, for comparison
CREATE TABLE local_numbers AS SELECT generate_series(1, 1000000)::bigint AS id;
CREATE TABLE local_public_id (id bigint PRIMARY KEY, hashid text, sqid text, objectid text);
SQL
insert="SELECT id, hashids_encode(id, 'citus accounts', 8), sqids_encode(id, min_length => 6),
               objectid_compress(lpad(to_hex(id), 24, '0'))"
plan=$(c -c "EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO public_id $insert FROM numbers")
insert_plan=$plan
check "the 1M-row INSERT ... SELECT is pushed down: the workers' queries call the encoders" \
    "$(grep -E 'Query: INSERT INTO .*hashids_encode\(.*sqids_encode\(.*objectid_compress\(' <<<"$plan" | wc -l | awk '{print ($1 > 0)}') $(grep -oE 'Task Count: [0-9]+' <<<"$plan")" "1 Task Count: 32"
citus_ms=$(c -c '\timing on' -c "INSERT INTO public_id $insert FROM numbers" | grep -oE 'Time: [0-9.]+' | cut -d' ' -f2)
local_ms=$(c -c '\timing on' -c "INSERT INTO local_public_id $insert FROM local_numbers" | grep -oE 'Time: [0-9.]+' | cut -d' ' -f2)
c -c "INSERT INTO account (id) SELECT id FROM numbers"
digest="md5(string_agg(id || ':' || hashid || ':' || sqid || ':' || objectid, ',' ORDER BY id))"
single=$(c -c "SELECT $digest FROM local_public_id")
check "distributed public IDs equal the single node's (1M rows each)" \
    "$(c -c "SELECT $digest FROM public_id") $(c -c "SELECT $digest FROM account")" "$single $single"
hashid=$(c -c "SELECT hashids_encode(4242, 'citus accounts', 8)")
plan=$(c -c "EXPLAIN (COSTS OFF) SELECT * FROM account WHERE id = hashids_decode_one('$hashid', 'citus accounts', 8)")
check "a lookup by decoded hashid is a router query" "$(grep -oE 'Task Count: [0-9]+' <<<"$plan")" "Task Count: 1"
check "... and finds its row" \
    "$(c -c "SELECT id FROM account WHERE id = hashids_decode_one('$hashid', 'citus accounts', 8)")" 4242
plan=$(c -c "EXPLAIN (COSTS OFF) SELECT id FROM account WHERE id = (sqids_decode('$(c -c "SELECT sqids_encode(77, min_length => 6)")', min_length => 6))[1]")
check "a lookup by decoded sqid is a router query" "$(grep -oE 'Task Count: [0-9]+' <<<"$plan")" "Task Count: 1"

# ---- tables distributed by the types: events by a ulid key, members by a typeid key
c >/dev/null <<'SQL'
CREATE TABLE member (id typeid PRIMARY KEY, made int NOT NULL);
SELECT create_distributed_table('member', 'id');
CREATE TABLE activity (id ulid PRIMARY KEY DEFAULT gen_ulid(), member typeid NOT NULL, n int NOT NULL);
SELECT create_distributed_table('activity', 'id');
INSERT INTO member SELECT typeid('member', uuid_v7_least(timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute')), g
FROM generate_series(1, 1000) g;
INSERT INTO activity (id, member, n)
SELECT ulid_least(timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'),
       typeid('member', uuid_v7_least(timestamptz '2026-01-01 00:00:00+00' + (1 + g % 1000) * interval '1 minute')), g
FROM generate_series(1, 100000) g;
SQL
c -c "INSERT INTO activity (member, n) SELECT id, -made FROM member WHERE made <= 10" >/dev/null
check "a table distributed by a ulid column: its rows over all 32 shards, the generated keys after the loaded ones" \
    "$(c -c "SELECT count(DISTINCT get_shard_id_for_distribution_column('activity', id)) || ' ' || count(*) || ' ' ||
                    count(DISTINCT id) FROM activity")
$(c -c "SELECT count(*) FROM (SELECT n FROM activity ORDER BY id DESC LIMIT 10) s WHERE n < 0")" "32 100010 100010
10"
plan=$(c -c "EXPLAIN (COSTS OFF) SELECT n FROM activity WHERE id = '01KDVDNAZ80000000000000000'")
check "a lookup by ulid literal is a router query" "$(grep -oE 'Task Count: [0-9]+' <<<"$plan")" "Task Count: 1"
# 01KDVDNAZ8: ulid 3.0.2's encodeTime of 2026-01-01 00:00:01 UTC, row 1
check "... and finds its row" "$(c -c "SELECT n FROM activity WHERE id = '01KDVDNAZ80000000000000000'")" "1"
plan=$(c -c "EXPLAIN (COSTS OFF) SELECT made FROM member WHERE id = typeid('member', uuid_v7_least('2026-01-01 00:01:00+00'))")
check "a lookup by typeid is a router query, and finds its row" \
    "$(grep -oE 'Task Count: [0-9]+' <<<"$plan") $(c -c "SELECT made FROM member WHERE id = 'member_01kdvdq4k0e008000000000000'")" \
    "Task Count: 1 1"
check "a time range over the shards, min and max of ulid, a repartition join on typeid" \
    "$(c -c "SELECT count(*) FROM activity WHERE id >= '2026-01-01 01:00:00+00'::timestamptz::ulid
                                        AND id < '2026-01-01 02:00:00+00'::timestamptz::ulid" \
         -c "SELECT min(id)::timestamptz AT TIME ZONE 'UTC', max(n) FROM activity WHERE n > 0" \
         -c "SET citus.enable_repartition_joins = on" \
         -c "SELECT count(*), count(DISTINCT m.made) FROM activity a JOIN member m ON m.id = a.member")" \
    "3600
2026-01-01 00:00:01|100000
100010|1000"

# ---- the short-URL service, distributed by code
# The table distributed by code, its hit counts beside it (examples/hit_count.sql: a code's rows on its shard);
# shorten() and resolve() as examples/shorturl_service.sql defines them.
shorturl="CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL, attempt int NOT NULL)"
c -c "CREATE SCHEMA single" -c "SET search_path = single, public" -c "$shorturl" -f examples/hit_count.sql \
  -f examples/shorturl_service.sql
c -c "$shorturl" -c "SELECT create_distributed_table('url_code', 'code')" -f examples/hit_count.sql \
  -c "SELECT create_distributed_table('hit_count', 'code', colocate_with => 'url_code')" \
  -f examples/shorturl_service.sql >/dev/null
run_urls="SELECT shorten('http://www.sina.com.cn/') || ' ' || shorten('http://www.sina.com.cn/');
          SELECT count(shorten('https://example.com/page/' || i, 1)) FROM generate_series(1, 60) i;"
single_run=$(c -c "SET search_path = single, public" -c "$run_urls")
check "shorten() on the distributed table: the seed's code, stable, and 60 one-character codes with retries" \
    "$(c -c "$run_urls")" "$single_run"
check "... the same codes and retries as on one node" \
    "$(c -c "SELECT md5(string_agg(url || code || attempt, ',' ORDER BY url)) || ' ' || count(*) FILTER (WHERE attempt > 0) FROM url_code")" \
    "$(c -c "SELECT md5(string_agg(url || code || attempt, ',' ORDER BY url)) || ' ' || count(*) FILTER (WHERE attempt > 0) FROM single.url_code")"
check "resolution and hit counting across shards" \
    "$(c -c "SELECT resolve('GgalHkii')" -c "SELECT resolve('GgalHkii')" -c "SELECT coalesce(resolve('nothing'), 'null')" -c "SELECT hits_of('url_code', 'GgalHkii')" | paste -sd' ')" \
    "http://www.sina.com.cn/ http://www.sina.com.cn/ null 2"
check "... and in batches, in the order given" \
    "$(c -c "SELECT shorten(ARRAY['http://www.sina.com.cn/', NULL])" -c "SELECT resolve(ARRAY['nothing', 'GgalHkii', NULL])" \
         -c "SELECT hits_of('url_code', 'GgalHkii')" | paste -sd' ')" \
    "{GgalHkii,NULL} {NULL,http://www.sina.com.cn/,NULL} 3"
# A viral link: 8 clients follow one code for 5 s (pgbench, each follow its own transaction); its count is exactly
# the follows that committed, and its rows are on the shard of its url_code row.
printf "SELECT resolve('GgalHkii');\n" >"$CLUSTERS/hot.sql"
hot_out=$("$PG_BIN/pgbench" -h localhost -p "$coordinator" -U postgres -n -c 8 -j 2 -T 5 -M prepared \
              -f "$CLUSTERS/hot.sql" postgres 2>&1)
committed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' <<<"$hot_out")
failed=$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' <<<"$hot_out")
check "a hot code followed from 8 clients at once: every committed follow counted once (${committed:-?} committed, ${failed:-0} failed)" \
    "$(c -c "SELECT hits_of('url_code', 'GgalHkii')")" "$((${committed:-0} + 3))"
check "... its hit rows beside its url_code row: the two tables colocated, the code's shards of both on one node" \
    "$(c -c "SELECT (SELECT count(DISTINCT colocationid) FROM pg_dist_partition
                     WHERE logicalrelid IN ('url_code'::regclass, 'hit_count'::regclass)) = 1
                AND (SELECT count(DISTINCT (nodename, nodeport)) FROM citus_shards
                     WHERE shardid IN (get_shard_id_for_distribution_column('url_code', 'GgalHkii'),
                                       get_shard_id_for_distribution_column('hit_count', 'GgalHkii'))) = 1")" "t"

# ---- the dedup store: files by name, chunks by digest
mb=${IDCODEC_CITUS_CHUNK_MB:-64}
dedup=$(cat <<'SQL'
CREATE TABLE document (name text PRIMARY KEY, content bytea NOT NULL);
CREATE TABLE chunk (digest bytea PRIMARY KEY, data bytea NOT NULL);
CREATE TABLE file (name text PRIMARY KEY, size bigint NOT NULL, chunks bytea[] NOT NULL);
SQL
)
c -c "CREATE SCHEMA single_dedup" -c "SET search_path = single_dedup, public" -c "$dedup" -f examples/dedup_store.sql
c -c "$dedup" -f examples/dedup_store.sql -c "SELECT create_distributed_table('document', 'name')" \
  -c "SELECT create_distributed_table('file', 'name', colocate_with => 'document')" \
  -c "SELECT create_distributed_table('chunk', 'digest')" >/dev/null
# 4 MB documents, each family in 4 versions that share most of their content.
documents="INSERT INTO document
SELECT format('doc-%s-v%s', d, v),
       overlay(b.base PLACING convert_to(repeat('edit ' || v, 200), 'UTF8') FROM 1 + (v * 777777) % 3000000 FOR 0)
FROM generate_series(1, greatest($mb / 16, 1)) d
CROSS JOIN LATERAL (SELECT decode(string_agg(md5(d || ':' || i), ''), 'hex') AS base FROM generate_series(1, 262144) i) b,
     generate_series(1, 4) v"
# The store's own chunks (file_chunks of examples/dedup_store.sql), computed set-wise over the distributed documents.
store_chunks="INSERT INTO chunk SELECT c.digest, c.data FROM document d, file_chunks(d.content) c ON CONFLICT DO NOTHING"
store_files="INSERT INTO file SELECT d.name, length(d.content),
    ARRAY(SELECT c.digest FROM file_chunks(d.content) c ORDER BY c.start) FROM document d"
c -c "$documents"
c -c "SET search_path = single_dedup, public" -c "$documents"
plan=$(c -c "EXPLAIN (VERBOSE, COSTS OFF) $store_chunks")
check "chunking runs on the workers (the store's file_chunks in the worker query, repartitioned by digest)" \
    "$(grep -c 'file_chunks' <<<"$plan" | awk '{print ($1 > 0)}') $(grep -oE 'INSERT/SELECT method: [a-z]+' <<<"$plan")" \
    "1 INSERT/SELECT method: repartition"
citus_chunk_ms=$(c -c '\timing on' -c "$store_chunks" -c "$store_files" | grep -oE 'Time: [0-9.]+' | awk '{s += $2} END {printf "%.0f", s}')
local_chunk_ms=$(c -c '\timing on' -c "SET search_path = single_dedup, public" -c "$store_chunks" -c "$store_files" | grep -oE 'Time: [0-9.]+' | awk '{s += $2} END {printf "%.0f", s}')
restored="WITH part AS MATERIALIZED (SELECT f.name, p.ord, p.digest FROM file f, unnest(f.chunks) WITH ORDINALITY p(digest, ord)),
               whole AS MATERIALIZED (SELECT part.name, string_agg(c.data, ''::bytea ORDER BY part.ord) AS content
                                      FROM part JOIN chunk c USING (digest) GROUP BY part.name)
          SELECT count(*) FILTER (WHERE md5(w.content) = md5(d.content)) || ' of ' || count(*)
          FROM whole w JOIN (SELECT name, content FROM document) d USING (name)"
files=$(c -c "SELECT count(*) FROM document")
# Restoring every file at once moves all the chunks through the coordinator: lift Citus's 1 GB cap for it.
check "every stored file restores byte for byte" \
    "$(c -c "SET citus.max_intermediate_result_size = -1" -c "$restored")" "$files of $files"
stats="SELECT (SELECT sum(size) FROM file) || ' ' || (SELECT sum(length(data)) FROM chunk)"
check "the distributed store keeps exactly the single node's chunks" \
    "$(c -c "$stats")" "$(c -c "SET search_path = single_dedup, public" -c "$stats")"
read -r bytes_in bytes_stored < <(c -c "$stats")

# ---- named keys: the keyring file on every node
# Each node reads idcodec.keys from its data directory; keys_on PORT LINES writes its file and reloads that node.
# The reload is asynchronous: wait until the node has read its configuration again.
keys_on() {
    as_postgres sh -c "umask 077; printf '%s\n' \"\$1\" >'$CLUSTERS/$(citus_node_name "$1")/idcodec.keys'" sh "$2"
    cluster_reload "$1"
}
customers_key=2b7e151628aed2a6abf7158809cf4f3c
next_key=000102030405060708090a0b0c0d0e0f1011121314151617
for port in $(citus_nodes); do
    keys_on "$port" "customers = $customers_key"
    cluster_psql "$port" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.keyring_file = 'idcodec.keys'"
    cluster_reload "$port"
done
c >/dev/null <<'SQL'
CREATE TABLE customer (
    id bigint PRIMARY KEY,
    public_id text GENERATED ALWAYS AS (idcrypt_encode(id, key_name => 'customers', tweak => 'customer')) STORED
);
SELECT create_distributed_table('customer', 'id');
INSERT INTO customer (id) SELECT generate_series(1, 1000);
SQL
codes="SELECT md5(string_agg(public_id, ',' ORDER BY id)) FROM customer"
check "codes made on the workers with the named key equal those of its bytes on one node" "$(c -c "$codes")" \
    "$(c -c "SELECT md5(string_agg(idcrypt_encode(g, '\x$customers_key'::bytea, tweak => 'customer'), ',' ORDER BY g)) FROM generate_series(1, 1000) g")"
code=$(c -c "SELECT public_id FROM customer WHERE id = 777")
lookup="SELECT id FROM customer WHERE id = idcrypt_decode('$code', key_name => 'customers', tweak => 'customer')"
check "a lookup by encrypted public ID is a router query and finds its row" \
    "$(c -c "EXPLAIN (COSTS OFF) $lookup" | grep -oE 'Task Count: [0-9]+') $(c -c "$lookup")" "Task Count: 1 777"
# the docs' check that every node has the same key under a name: a code of a fixed number, compared across the nodes
key_check() {
    c -c "SELECT string_agg(n.nodeport || '=' || r.success || ':' || r.result, ' '
                            ORDER BY n.nodeport = $coordinator DESC, n.nodeport = ${workers[0]} DESC)
          FROM run_command_on_all_nodes(\$\$SELECT idcrypt_encode(0, key_name => '$1', tweak => 'key check')\$\$) r
          JOIN pg_dist_node n USING (nodeid)"
}
same="$(c -c "SELECT idcrypt_encode(0, '\x$customers_key'::bytea, tweak => 'key check')")"
check "the key check gives the same code on every node" "$(key_check customers)" \
    "$coordinator=true:$same ${workers[0]}=true:$same ${workers[1]}=true:$same"
# A node without the key, or without a keyring file: the statement fails with the SQLSTATE of the missing key and
# Citus's context naming that node; no row gets a code made otherwise.
id_on() {  # the first id above 1000 whose shard is on that worker
    c -c "SELECT g FROM generate_series(1001, 2000) g JOIN pg_dist_placement p
              ON p.shardid = get_shard_id_for_distribution_column('customer', g)
          JOIN pg_dist_node n ON n.groupid = p.groupid AND n.nodeport = $1 ORDER BY g LIMIT 1"
}
failure() {  # SQLSTATE and the node the error came from
    local out
    out=$(c -v VERBOSITY=verbose -c "$1" 2>&1 || true)
    echo "$(grep -oE '^ERROR: +[0-9A-Z]{5}' <<<"$out" | grep -oE '[0-9A-Z]{5}$') $(grep -oE 'while executing command on [a-z]+:[0-9]+' <<<"$out" | head -n 1)"
}
keys_on "${workers[1]}" "orders = $next_key"
check "worker2 lacks the key: an insert into its shard fails with 42704 naming worker2, and no row written" \
    "$(failure "INSERT INTO customer (id) VALUES ($(id_on "${workers[1]}"))") $(c -c "SELECT count(*) FROM customer")" \
    "42704 while executing command on localhost:${workers[1]} 1000"
check "... a query decoding on every shard fails naming worker2" \
    "$(failure "SELECT count(*) FROM customer WHERE idcrypt_decode(public_id, key_name => 'customers', tweak => 'customer') = id")" \
    "42704 while executing command on localhost:${workers[1]}"
c -c "INSERT INTO customer (id) VALUES ($(id_on "${workers[0]}"))"
check "... while worker1's shards take rows with the right code" "$(c -c "SELECT count(*), count(*) FILTER (WHERE public_id =
    idcrypt_encode(id, '\x$customers_key'::bytea, tweak => 'customer')) FROM customer")" "1001|1001"
cluster_psql "${workers[0]}" -c "ALTER SYSTEM RESET idcodec.keyring_file"
cluster_reload "${workers[0]}"
check "worker1 with no keyring file set: 55000 naming worker1, and no row written" \
    "$(failure "INSERT INTO customer (id) VALUES ($(id_on "${workers[0]}"))") $(c -c "SELECT count(*) FROM customer")" \
    "55000 while executing command on localhost:${workers[0]} 1001"
cluster_psql "${workers[0]}" -c "ALTER SYSTEM SET idcodec.keyring_file = 'idcodec.keys'"
cluster_reload "${workers[0]}"
# Rotation as the docs give it: the new name in every node's file, reloaded, checked alike, then a column of its own.
for port in $(citus_nodes); do keys_on "$port" "customers = $customers_key
customers_2027 = $next_key"; done
check "rotation: the new name gives the same code on every node" "$(key_check customers_2027)" \
    "$(same=$(c -c "SELECT idcrypt_encode(0, '\x$next_key'::bytea, tweak => 'key check')")
       echo "$coordinator=true:$same ${workers[0]}=true:$same ${workers[1]}=true:$same")"
c -c "ALTER TABLE customer ADD COLUMN public_id_2027 text
      GENERATED ALWAYS AS (idcrypt_encode(id, key_name => 'customers_2027', tweak => 'customer')) STORED"
check "... a column under the new name, computed on every shard, with the old one kept" \
    "$(c -c "SELECT count(*) FILTER (WHERE public_id_2027 = idcrypt_encode(id, '\x$next_key'::bytea, tweak => 'customer')
                                      AND public_id = idcrypt_encode(id, '\x$customers_key'::bytea, tweak => 'customer'))
             FROM customer")" "1001"
keys_on "${workers[1]}" "customers = $customers_key
customers_2027 = $customers_key$(echo "$next_key" | cut -c33-)"
check "a node given another key under the name is the one the key check sets apart" \
    "$(key_check customers_2027 | tr ' ' '\n' | awk -F= '{print $2}' | sort | uniq -c | awk '{print $1}' | sort | paste -sd' ')
$(key_check customers_2027 | tr ' ' '\n' | grep -vF "=true:$(c -c "SELECT idcrypt_encode(0, '\x$next_key'::bytea, tweak => 'key check')")" | cut -d= -f1)" \
    "1 2
${workers[1]}"

# ---- snowflake keys: every node its own number, set as the docs say (LOAD, ALTER SYSTEM, reload)
node_number=0
for port in $(citus_nodes); do
    node_number=$((node_number + 1))
    cluster_psql "$port" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.node_id = $node_number"
    cluster_reload "$port"
done
c -c "CREATE TABLE reading (id bigint DEFAULT snowflake_generate() PRIMARY KEY, sensor int NOT NULL)" \
  -c "SELECT create_distributed_table('reading', 'id')" \
  -c "CREATE TABLE device_event (device int NOT NULL, id bigint DEFAULT snowflake_generate(), PRIMARY KEY (device, id))" \
  -c "SELECT create_distributed_table('device_event', 'device')" \
  -c "CREATE TABLE device (device int PRIMARY KEY)" -c "SELECT create_distributed_table('device', 'device')" \
  -c "INSERT INTO device SELECT g FROM generate_series(1, 200) g" >/dev/null
c -c "INSERT INTO reading (sensor) SELECT g FROM generate_series(1, 1000) g" \
  -c "INSERT INTO reading (sensor) VALUES (1), (2), (3)"
check "a key by snowflake_generate(), the distribution column: made on the coordinator (node 1), spread over shards" \
    "$(c -c "SELECT count(*), count(DISTINCT id), string_agg(DISTINCT snowflake_node(id)::text, ','),
                    count(DISTINCT get_shard_id_for_distribution_column('reading', id)) > 16 FROM reading")" \
    "1003|1003|1|t"
# INSERT ... SELECT between colocated tables runs on the workers: there the default is the worker's own number
c -c "INSERT INTO device_event (device) SELECT device FROM device" -c "INSERT INTO device_event (device) SELECT device FROM device"
check "an INSERT ... SELECT pushed down to the workers: each row made by the worker holding its shard" \
    "$(c -c "SELECT count(*), count(DISTINCT id),
                    count(*) FILTER (WHERE snowflake_node(id) = CASE nodeport WHEN ${workers[0]} THEN 2 ELSE 3 END)
             FROM device_event e
             JOIN pg_dist_shard_placement p ON p.shardid = get_shard_id_for_distribution_column('device_event', e.device)")" \
    "400|400|400"

check "no backend of any node crashed or failed an assertion" "$(citus_crashes)" ""

docs=$(PGHOST=localhost PGPORT=$coordinator PGUSER=postgres PGDATABASE=postgres python3 test/docs_check.py --citus docs/scaling-out.md 2>&1 || true)
check "the Citus examples of docs/scaling-out.md give the results shown" "$(tail -n 1 <<<"$docs")" \
    "docs on Citus: $(grep -c ';   -- ' <(sed -n '/^```sql citus/,/^```$/p' docs/scaling-out.md)) examples compared; 0 problems"
[ "$TAP_FAILED" -eq 0 ] || tap_diag "$docs"

tap_diag "the workers' query: $(grep -m1 -oE 'Query: INSERT INTO .{0,160}' <<<"$insert_plan")..."
tap_diag "measured (2 cores, all three nodes on this machine): 1M-row INSERT ... SELECT of three public IDs:" \
     "Citus ${citus_ms} ms, one node ${local_ms} ms; chunking and storing $((bytes_in >> 20)) MB in $files files:" \
     "Citus ${citus_chunk_ms} ms, one node ${local_chunk_ms} ms; stored $((bytes_stored >> 20)) MB"
tap_diag "citus: Citus $(citus_release)"
tap_done
