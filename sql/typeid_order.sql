-- typeid's order under every way PostgreSQL sorts it (1.6.2 abbreviates the keys of sorts and index builds): the
-- reference is PostgreSQL's own order of a bytea of the prefix, a zero byte and the UUID's 16 bytes. The sets are
-- adversarial for a 64-bit summary of a TypeID: prefixes that share their first 8 and 12 characters, prefixes that
-- begin others, '_' against the letters, the empty prefix, 63-letter prefixes, and UUIDs that share their first
-- 8 bytes or differ only in the lowest bits of the 8th. Each check counts the values out of place (0 expected).
SET jit = off;
SET max_parallel_workers_per_gather = 0;  -- the sorts' input order is the scan's (a sort abbreviates against the
                                          -- first prefix it meets)
CREATE EXTENSION IF NOT EXISTS amcheck;

CREATE TABLE prefixes (prefix text PRIMARY KEY);
INSERT INTO prefixes VALUES (''), ('a'), ('b'), ('z'), ('aa'), ('ab'), ('a_a'), ('a_b'), ('aab'), ('abcdefgh'),
    ('abcdefgha'), ('abcdefghz'), ('abcdefgh_z'), ('abcdefghijkl'), ('abcdefghijkla'), ('abcdefghijklm'),
    ('abcdefghijkl_a'), ('abcdefghijklmnopqrstuvwxy'), ('abcdefghijklmnopqrstuvwxyz'), ('user'), ('users'),
    ('user_account'), ('user_accounts'), (repeat('a', 62)), (repeat('a', 63)), (repeat('a', 62) || 'b'),
    (repeat('z', 63)), (repeat('a', 31) || '_' || repeat('a', 31)), (repeat('a', 12) || 'b'),
    (repeat('a', 12) || '_b');
SELECT count(*) AS prefixes, min(length(prefix)) AS shortest, max(length(prefix)) AS longest FROM prefixes;

-- UUIDs: the least and greatest, four that differ only in the 8th byte's lowest two bits, two that share their first
-- 8 bytes and differ in the last, and 16 of md5's per prefix
CREATE TABLE uuids_fixed (u uuid);
INSERT INTO uuids_fixed VALUES ('00000000-0000-0000-0000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('01890a5d-ac96-7748-bcce-b302099a8057'), ('01890a5d-ac96-7749-bcce-b302099a8057'),
    ('01890a5d-ac96-774a-bcce-b302099a8057'), ('01890a5d-ac96-774b-bcce-b302099a8057'),
    ('01890a5d-ac96-774b-0000-000000000000'), ('01890a5d-ac96-774b-ffff-ffffffffffff');

-- every (prefix, UUID) once, the fixed ones twice; stored in an order unrelated to either
CREATE TABLE adversarial (one int, prefix text, id typeid, ref bytea);
INSERT INTO adversarial
SELECT 1, prefix, typeid(prefix, u), convert_to(prefix, 'UTF8') || '\x00'::bytea || uuid_send(u)
FROM (SELECT prefix, u FROM prefixes, uuids_fixed, generate_series(1, 2)
      UNION ALL
      SELECT prefix, md5(prefix || g)::uuid FROM prefixes, generate_series(1, 16) g) s
ORDER BY md5(prefix || u::text);
SELECT count(*) AS rows, count(DISTINCT ref) AS distinct_values FROM adversarial;

-- The values out of place when `source`'s rows are sorted by `ordered` (a query over the subquery src, giving id),
-- against the reference order of the same rows (its first as many values as `ordered` gives).
CREATE FUNCTION pg_temp.misplaced(source text, ordered text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    got text[];
    want text[];
BEGIN
    EXECUTE format('SELECT array_agg(id::text) FROM (%s) s', format(ordered, '(' || source || ') src')) INTO got;
    EXECUTE format('SELECT (array_agg(id::text ORDER BY ref))[1:%s] FROM (%s) src', cardinality(got), source) INTO want;
    RETURN (SELECT count(*) FROM unnest(got, want) AS p(g, w) WHERE g IS DISTINCT FROM w);
END
$$;

-- Each prefix in turn first in the sort's input (so every prefix is once the one the keys are made against), sorted
-- three ways that abbreviate: a sort in memory, an external sort (sorted runs merged by the full comparison) and an
-- ordered aggregate (a sort of datums)
CREATE FUNCTION pg_temp.misplaced_with_each_prefix_first(ordered text) RETURNS TABLE (leaders bigint, misplaced numeric)
LANGUAGE sql AS $$
SELECT count(*), sum(pg_temp.misplaced(format(
    'SELECT * FROM adversarial WHERE ref = %L UNION ALL SELECT * FROM adversarial WHERE ref <> %L', l.ref, l.ref),
    ordered))
FROM (SELECT DISTINCT ON (prefix) ref FROM adversarial ORDER BY prefix, md5(ref::text)) l
$$;
SELECT * FROM pg_temp.misplaced_with_each_prefix_first('SELECT id FROM %s ORDER BY id');
SELECT * FROM pg_temp.misplaced_with_each_prefix_first('SELECT unnest(array_agg(id ORDER BY id)) AS id FROM %s');
SET work_mem = '64kB';
SELECT * FROM pg_temp.misplaced_with_each_prefix_first('SELECT id FROM %s ORDER BY id');
RESET work_mem;
-- the plain comparison: typeid as a second key, and a bounded sort (LIMIT), which do not abbreviate
SELECT pg_temp.misplaced('SELECT * FROM adversarial', 'SELECT id FROM %s ORDER BY one, id') AS second_key,
       pg_temp.misplaced('SELECT * FROM adversarial', 'SELECT id FROM %s ORDER BY id LIMIT 100') AS bounded;
-- descending, and DISTINCT by sorting
SELECT (SELECT array_agg(id::text) FROM (SELECT id FROM adversarial ORDER BY id DESC) s)
       = (SELECT array_agg(id::text ORDER BY ref DESC) FROM adversarial) AS descending_in_order;
SET enable_hashagg = off;
SELECT (SELECT array_agg(id::text) FROM (SELECT DISTINCT id FROM adversarial) d)
       = (SELECT array_agg(id::text ORDER BY ref) FROM (SELECT DISTINCT ON (ref) id, ref FROM adversarial ORDER BY ref) r)
    AS distinct_in_order;
RESET enable_hashagg;

-- 20,000 TypeIDs of one prefix whose UUIDs share their first 8 bytes: every key is the same, so the sort stops
-- abbreviating after 10,000 rows and compares the values; and 30,000 of random prefixes and UUIDs, where it does not
CREATE TABLE one_key AS
SELECT 1 AS one, typeid('user', u) AS id, convert_to('user', 'UTF8') || '\x00'::bytea || uuid_send(u) AS ref
FROM (SELECT ('01890a5d-ac96-774b-' || substr(md5(g::text), 1, 4) || '-' || substr(md5(g::text), 5, 12))::uuid AS u
      FROM generate_series(1, 20000) g) s;
CREATE TABLE mixed AS
SELECT 1 AS one, typeid(p.prefix, u) AS id, convert_to(p.prefix, 'UTF8') || '\x00'::bytea || uuid_send(u) AS ref
FROM (SELECT g, md5('mixed' || g)::uuid AS u, ('x' || substr(md5('prefix' || g), 1, 7))::bit(28)::int % 30 AS k
      FROM generate_series(1, 30000) g) s
JOIN (SELECT prefix, row_number() OVER (ORDER BY prefix COLLATE "C") - 1 AS k FROM prefixes) p USING (k);
-- 300 prefixes, more than a sort gives codes of their own, 20 TypeIDs each, stored in the prefixes' order (a table
-- clustered by prefix) and in the reverse
CREATE TABLE many AS
SELECT 1 AS one, typeid(prefix, u) AS id, convert_to(prefix, 'UTF8') || '\x00'::bytea || uuid_send(u) AS ref
FROM (SELECT 'p' || chr(97 + k / 26 / 26) || chr(97 + k / 26 % 26) || chr(97 + k % 26) AS prefix,
             md5('many' || k || '/' || g)::uuid AS u
      FROM generate_series(0, 299) k, generate_series(1, 20) g) s
ORDER BY ref;
CREATE TABLE many_reversed AS SELECT * FROM many ORDER BY ref DESC;
SELECT count(*) AS rows, count(DISTINCT typeid_prefix(id)) AS prefixes FROM many;
SELECT pg_temp.misplaced('SELECT * FROM many', 'SELECT id FROM %s ORDER BY id') AS ascending,
       pg_temp.misplaced('SELECT * FROM many_reversed', 'SELECT id FROM %s ORDER BY id') AS descending;
SELECT count(*) AS rows, count(DISTINCT substring(ref FROM 6 FOR 8)) AS distinct_first_uuid_bytes FROM one_key;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_values, count(DISTINCT typeid_prefix(id)) AS prefixes FROM mixed;
SELECT pg_temp.misplaced('SELECT * FROM one_key', 'SELECT id FROM %s ORDER BY id') AS one_key_sorted,
       pg_temp.misplaced('SELECT * FROM one_key', 'SELECT id FROM %s ORDER BY one, id') AS one_key_plain,
       pg_temp.misplaced('SELECT * FROM mixed', 'SELECT id FROM %s ORDER BY id') AS mixed_sorted,
       pg_temp.misplaced('SELECT * FROM mixed', 'SELECT id FROM %s ORDER BY one, id') AS mixed_plain;
-- the sort says when it stops abbreviating (at DEBUG2): after 10,240 rows of one_key, never for mixed
SET client_min_messages = debug2;
SELECT count(*) FROM (SELECT id FROM one_key ORDER BY id OFFSET 0) s;
SELECT count(*) FROM (SELECT id FROM mixed ORDER BY id OFFSET 0) s;
RESET client_min_messages;
SET work_mem = '64kB';
SELECT pg_temp.misplaced('SELECT * FROM one_key', 'SELECT id FROM %s ORDER BY id') AS one_key_external,
       pg_temp.misplaced('SELECT * FROM mixed', 'SELECT id FROM %s ORDER BY id') AS mixed_external;
RESET work_mem;

-- Index builds, serial and parallel (each worker sorts its share with keys made against its own first prefix; the
-- leader merges them by the full comparison): amcheck finds every row in an index in order, and an index scan gives
-- the reference order
SET maintenance_work_mem = '128MB';
ALTER TABLE adversarial SET (parallel_workers = 2);
ALTER TABLE one_key SET (parallel_workers = 2);
ALTER TABLE mixed SET (parallel_workers = 2);
ALTER TABLE many SET (parallel_workers = 2);
CREATE FUNCTION pg_temp.index_checked(tab text, workers int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    out_of_place bigint;
BEGIN
    PERFORM set_config('max_parallel_maintenance_workers', workers::text, true);
    PERFORM set_config('client_min_messages', 'debug1', true);  -- the build says whether it asked for workers
    EXECUTE format('CREATE INDEX checked ON %I (id)', tab);
    PERFORM set_config('client_min_messages', 'notice', true);
    PERFORM bt_index_parent_check('checked', true);
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_sort', 'off', true);
    out_of_place := pg_temp.misplaced(format('SELECT * FROM %I', tab), 'SELECT id FROM %s ORDER BY id');
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_bitmapscan', 'on', true);
    PERFORM set_config('enable_sort', 'on', true);
    DROP INDEX checked;
    RETURN out_of_place;
END
$$;
SELECT pg_temp.index_checked('adversarial', 0) AS adversarial_serial;
SELECT pg_temp.index_checked('adversarial', 2) AS adversarial_parallel;
SELECT pg_temp.index_checked('one_key', 0) AS one_key_serial;
SELECT pg_temp.index_checked('one_key', 2) AS one_key_parallel;
SELECT pg_temp.index_checked('mixed', 0) AS mixed_serial;
SELECT pg_temp.index_checked('mixed', 2) AS mixed_parallel;
SELECT pg_temp.index_checked('many', 0) AS many_serial;
SELECT pg_temp.index_checked('many', 2) AS many_parallel;
RESET maintenance_work_mem;

DROP TABLE prefixes, uuids_fixed, adversarial, one_key, mixed, many, many_reversed;
