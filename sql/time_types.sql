-- The ulid and typeid types (1.5.0): sizes, text and binary forms, order and indexes, casts, the times of UUIDs and
-- the generators. Values known from elsewhere: 01ARZ3NDEKTSV4RRFFQ69G5FAV is the ULID specification's example
-- (bytes 01563e3a-b5d3-d676-4c61-efb99302bd5b in ulid 3.0.2); user_01h455vb4pex5vsknk084sn02q is the TypeID
-- specification's (UUID 01890a5d-ac96-774b-bcce-b302099a8057). The ULIDs' time digits below (01KDWFZY80 for
-- 2026-01-01 10:00 UTC, 01ARZ3NDEK for 1469922850259 ms, 7ZZZZZZZZZ for the last millisecond) are ulid 3.0.2's
-- encodeTime, and user_01kdvdna00e008000000000000 is typeid-js 1.2.0's TypeID of 019b76da-a800-7000-8000-000000000000.
SET timezone = 'UTC';

-- ulid: 16 bytes, the same as its uuid; either case, Crockford's aliases, or the UUID's text in
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS canonical, '01arz3ndektsv4rrffq69g5fav'::ulid AS lowercase,
       '0lARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS aliases, '01563E3A-B5D3-D676-4C61-EFB99302BD5B'::ulid AS from_uuid_text;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid, pg_column_size('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid),
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') = uuid_send('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS send_as_uuid;
SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::uuid AS greatest, '00000000000000000000000000'::ulid::uuid AS least;
-- malformed: too long, too short, beyond 128 bits, a letter no ULID has, a UUID without hyphens
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAVX'::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::ulid;
SELECT '8ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '01563e3ab5d3d6764c61efb99302bd5b'::ulid;
SELECT ''::ulid;

-- casts with uuid are free and resolve without ambiguity: ulid = uuid uses uuid's operator, a literal is a ulid
-- (autovacuum off: the plans shown are those of a table without statistics, which an automatic analyze would change)
CREATE TABLE ulids (id ulid PRIMARY KEY, u uuid NOT NULL, note text) WITH (autovacuum_enabled = off);
INSERT INTO ulids
SELECT ulid_least(timestamptz '2026-01-01' + i * interval '1 minute'), uuid_v7_least(timestamptz '2026-01-01' + i * interval '1 minute'),
       'row ' || i
FROM generate_series(0, 999) i;
INSERT INTO ulids VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01563e3a-b5d3-d676-4c61-efb99302bd5b', 'the example');
SELECT note FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT note FROM ulids WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b';
SELECT note FROM ulids WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
SELECT note FROM ulids WHERE '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = id;
SELECT note FROM ulids WHERE id IN ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAW');
SELECT count(*) FROM ulids a JOIN ulids b ON a.id = b.u;
-- the operators chosen for ulid = uuid, uuid = ulid and ulid = ulid, read from what a view depends on: the exact
-- ones, so a uuid value uses ulid's indexes
CREATE VIEW chosen AS SELECT a.id = b.u AS ulid_uuid, b.u = a.id AS uuid_ulid, a.id = b.id AS ulid_ulid FROM ulids a, ulids b;
SELECT DISTINCT d.refobjid::regoperator::text AS operator FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
WHERE d.classid = 'pg_rewrite'::regclass AND r.ev_class = 'chosen'::regclass AND d.refclassid = 'pg_operator'::regclass
ORDER BY 1;
-- ulid compared with text needs a cast, as uuid does: no operator exists (42883), none is ambiguous (42725)
\set VERBOSITY sqlstate
SELECT count(*) FROM ulids WHERE id = note;
SELECT count(*) FROM ulids WHERE id::text = note;
SELECT count(*) FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text::ulid;
\set VERBOSITY default

-- order: time first; ORDER BY and the B-tree agree with uuid's order and with the ULID text's
SELECT bool_and(prev < id) AS increasing FROM (SELECT id, lag(id) OVER (ORDER BY u) AS prev FROM ulids) s WHERE prev IS NOT NULL;
SELECT (array_agg(id ORDER BY id))[1:2] AS first_two, (array_agg(id::text COLLATE "C" ORDER BY id::text COLLATE "C"))[1:2] AS by_text FROM ulids;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ulids WHERE id >= '2026-01-01 10:00'::timestamptz::ulid AND id < '2026-01-01 11:00'::timestamptz::ulid;
SELECT count(*) FROM ulids WHERE id >= '2026-01-01 10:00'::timestamptz::ulid AND id < '2026-01-01 11:00'::timestamptz::ulid;
SELECT count(*) FROM ulids WHERE id BETWEEN ulid_least('2026-01-01 10:00') AND ulid_greatest('2026-01-01 10:59');
EXPLAIN (COSTS OFF) SELECT * FROM ulids ORDER BY id DESC LIMIT 3;
-- min and max (uuid has neither): the earliest and the latest, read from the index's ends
SELECT min(id), max(id), max(id)::timestamptz AS latest FROM ulids;
CREATE FUNCTION pg_temp.plan_uses(query text, node text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF position(node IN line) > 0 THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
END $$;
SELECT pg_temp.plan_uses('SELECT max(id) FROM ulids', 'Index Only Scan Backward using ulids_pkey') AS max_from_index,
       pg_temp.plan_uses('SELECT min(id) FROM ulids', 'Index Only Scan using ulids_pkey') AS min_from_index;
-- a uuid value, on either side, and a version 7 UUID bound use ulid's index
SELECT pg_temp.plan_uses($$SELECT note FROM ulids WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid$$, 'Index Scan using ulids_pkey') AS uuid_value,
       pg_temp.plan_uses($$SELECT note FROM ulids WHERE '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid = id$$, 'Index Scan using ulids_pkey') AS uuid_on_the_left,
       pg_temp.plan_uses($$SELECT note FROM ulids WHERE id >= uuid_v7_least('2026-01-01 16:00+00')$$, 'Index Scan using ulids_pkey') AS v7_bound;
-- (the row of 16:00 itself is a ULID whose bits below the time are 0, less than the least version 7 UUID of its
-- millisecond: uuid_v7_least bounds version 7 UUIDs, ulid_least any ULID)
SELECT count(*) FROM ulids WHERE id >= uuid_v7_least('2026-01-01 16:00+00') AND id <= uuid_v7_greatest('2026-01-01 16:09+00');
RESET enable_seqscan;
RESET enable_bitmapscan;
-- hash: index, join, aggregate, partitions; the hash is uuid's
CREATE INDEX ulids_hash ON ulids USING hash (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT note FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT note FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
RESET enable_seqscan;
SELECT ulid_hash('01ARZ3NDEKTSV4RRFFQ69G5FAV') = uuid_hash('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS hash,
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 7) = uuid_hash_extended('01563e3a-b5d3-d676-4c61-efb99302bd5b', 7) AS extended;
SET enable_mergejoin = off;
SET enable_nestloop = off;
CREATE TABLE ulids_copy AS SELECT * FROM ulids;
SELECT pg_temp.plan_uses('SELECT count(*) FROM ulids a JOIN ulids_copy b USING (id)', 'Hash Join') AS hash_join;
SELECT count(*) FROM ulids a JOIN ulids_copy b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
-- merge joins of a ulid column with a uuid column (1.6.2): ulid = uuid and uuid = ulid are MERGES from PostgreSQL 17
-- on, where ALTER OPERATOR can set it, so with hash joins and nested loops off the plan is a merge join. On 15 and 16
-- they are not, and the plan is a nested loop, which the settings only discourage (expected/time_types_1.out). The
-- rows are the same: those of the uuid join. Six UUIDs on both sides (md5s, in no order of their rows), two only
-- among the ulids, two only among the uuids; one UUID twice on the uuid side, one twice on both sides:
-- 1 + 1 + 2 + 4 + 1 + 1 = 10 rows.
CREATE TABLE merge_ulids (id ulid NOT NULL, n int NOT NULL);
CREATE TABLE merge_uuids (u uuid NOT NULL, n int NOT NULL);
INSERT INTO merge_ulids SELECT md5(i::text)::uuid, i FROM generate_series(1, 8) i;
INSERT INTO merge_ulids VALUES (md5('6')::uuid, 60);
INSERT INTO merge_uuids SELECT md5(i::text)::uuid, i FROM generate_series(3, 10) i;
INSERT INTO merge_uuids VALUES (md5('5')::uuid, 50), (md5('6')::uuid, 60);
ANALYZE merge_ulids, merge_uuids;
SELECT oprleft::regtype, oprright::regtype, oprcanmerge = (current_setting('server_version_num')::int >= 170000) AS merges_from_17
FROM pg_operator WHERE oid IN ('=(ulid,uuid)'::regoperator, '=(uuid,ulid)'::regoperator) ORDER BY oprleft::regtype::text COLLATE "C";
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT l.n AS ulid_row, u.n AS uuid_row FROM merge_ulids l JOIN merge_uuids u ON l.id = u.u;
-- (and whichever expected file matches, the plan is the one of its major: a merge join exactly from 17 on)
SELECT pg_temp.plan_uses('SELECT l.n FROM merge_ulids l JOIN merge_uuids u ON l.id = u.u', 'Merge Join')
       = (current_setting('server_version_num')::int >= 170000) AS merge_join_from_17;
SELECT l.n AS ulid_row, u.n AS uuid_row FROM merge_ulids l JOIN merge_uuids u ON l.id = u.u ORDER BY 1, 2;
-- either way round, as a full join (the rows of one side only too), and against the same join of uuid with uuid
SELECT (SELECT count(*) FROM merge_ulids l JOIN merge_uuids u ON l.id = u.u) AS ulid_uuid,
       (SELECT count(*) FROM merge_ulids l JOIN merge_uuids u ON u.u = l.id) AS uuid_ulid,
       (SELECT count(*) FROM merge_ulids l JOIN merge_uuids u ON l.id::uuid = u.u) AS uuid_uuid;
SELECT count(*) AS full_join, count(*) FILTER (WHERE u.n IS NULL) AS ulids_only, count(*) FILTER (WHERE l.n IS NULL) AS uuids_only
FROM merge_ulids l FULL JOIN merge_uuids u ON l.id = u.u;
SELECT (SELECT count(*) FROM (SELECT l.n, u.n FROM merge_ulids l JOIN merge_uuids u ON u.u = l.id
                              EXCEPT ALL SELECT l.n, u.n FROM merge_ulids l JOIN merge_uuids u ON l.id::uuid = u.u) d) AS not_in_uuid_join,
       (SELECT count(*) FROM (SELECT l.n, u.n FROM merge_ulids l JOIN merge_uuids u ON l.id::uuid = u.u
                              EXCEPT ALL SELECT l.n, u.n FROM merge_ulids l JOIN merge_uuids u ON l.id = u.u) d) AS missing;
RESET enable_hashjoin;
RESET enable_nestloop;
DROP TABLE merge_ulids, merge_uuids;
SELECT count(DISTINCT id), count(*) FROM (SELECT id FROM ulids UNION ALL SELECT id FROM ulids) s;
CREATE TABLE ulid_parts (id ulid, note text) PARTITION BY HASH (id);
CREATE TABLE ulid_parts_0 PARTITION OF ulid_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE ulid_parts_1 PARTITION OF ulid_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO ulid_parts SELECT id, note FROM ulids;
SELECT count(*) > 300 AND count(*) < 700 AS balanced FROM ulid_parts_0;
SELECT note FROM ulid_parts WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
-- pruned to one partition by a uuid too
SELECT pg_temp.plan_uses($$SELECT note FROM ulid_parts WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid$$, 'ulid_parts_0')
       <> pg_temp.plan_uses($$SELECT note FROM ulid_parts WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid$$, 'ulid_parts_1') AS one_partition;
SELECT note FROM ulid_parts WHERE id = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
-- a list of uuids against the ulid key, as constants and as a driver's parameters (custom and generic plans), and an
-- IN subquery of uuids: ulid's index and the right rows (1.5.0's families lacked uuid's own order and equality,
-- which the index scan's sorting of the list and the hashed subplan need)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan_uses($$SELECT note FROM ulids WHERE id IN ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid, '00000000-0000-0000-0000-000000000001'::uuid)$$,
                         'Index Scan using ulids_pkey') AS uuid_list;
SELECT note FROM ulids WHERE id IN ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid, '00000000-0000-0000-0000-000000000001'::uuid);
PREPARE by_uuids(uuid, uuid) AS SELECT note FROM ulids WHERE id IN ($1, $2);
EXECUTE by_uuids('01563e3a-b5d3-d676-4c61-efb99302bd5b', '00000000-0000-0000-0000-000000000001');
SET plan_cache_mode = force_generic_plan;
EXECUTE by_uuids('01563e3a-b5d3-d676-4c61-efb99302bd5b', '00000000-0000-0000-0000-000000000001');
RESET plan_cache_mode;
-- (the rows of minutes 0 to 499 and the 2016 example)
SELECT count(*) FROM ulids a, (SELECT array_agg(id::uuid) AS v FROM ulids_copy WHERE note IN ('row 500', 'row 20')) p WHERE a.id < ANY (p.v);
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM ulids WHERE id IN (SELECT id::uuid FROM ulids_copy);
SELECT count(*) FROM ulids WHERE id NOT IN (SELECT id::uuid FROM ulids_copy WHERE note <> (SELECT min(note) FROM ulids_copy));
SELECT note FROM ulid_parts WHERE id IN ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid, '00000000-0000-0000-0000-000000000001'::uuid);
-- B-tree indexes deduplicate (btequalimage), as uuid's do: with duplicates, the size of a uuid index over the same values
CREATE TABLE repeated AS SELECT id::uuid AS u, id AS l FROM (SELECT id FROM ulids LIMIT 50) s, generate_series(1, 100);
CREATE INDEX repeated_u ON repeated (u);
CREATE INDEX repeated_l ON repeated (l);
SELECT pg_relation_size('repeated_l') = pg_relation_size('repeated_u') AS deduplicated;
DROP TABLE repeated;
-- every operator class of idcodec is complete
SELECT o.opcname, amvalidate(o.oid) FROM pg_opclass o JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass
AND d.objid = o.oid AND d.deptype = 'e' JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec' ORDER BY 1;
-- BRIN: minmax by default, bloom on request
CREATE INDEX ulids_brin ON ulids USING brin (id);
CREATE INDEX ulids_bloom ON ulids USING brin (id ulid_bloom_ops);
SELECT c.relname, o.opcname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_opclass o ON o.oid = i.indclass[0] WHERE i.indrelid = 'ulids'::regclass ORDER BY 1;
SET enable_seqscan = off;
SET enable_indexscan = off;
DROP INDEX ulids_hash;
ALTER TABLE ulids DROP CONSTRAINT ulids_pkey;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ulids WHERE id >= '2026-01-01 10:00'::timestamptz::ulid AND id < '2026-01-01 11:00'::timestamptz::ulid;
SELECT count(*) FROM ulids WHERE id >= '2026-01-01 10:00'::timestamptz::ulid AND id < '2026-01-01 11:00'::timestamptz::ulid;
DROP INDEX ulids_brin;
EXPLAIN (COSTS OFF) SELECT note FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT note FROM ulids WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
RESET enable_seqscan;
RESET enable_indexscan;

-- times: a ULID's millisecond; the least and greatest ULID and version 7 UUID of a millisecond
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz, ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
SELECT ulid_least('2016-07-30 23:54:10.259999'), ulid_greatest('2016-07-30 23:54:10.259');
SELECT uuid_v7_least('2016-07-30 23:54:10.259'), uuid_v7_greatest('2016-07-30 23:54:10.259999');
SELECT ulid_least('1970-01-01'), ulid_greatest('10889-08-02 05:31:50.655');
SELECT ulid_least('1969-12-31 23:59:59.999999');
SELECT uuid_v7_greatest('10889-08-02 05:31:50.655999');
SELECT uuid_v7_greatest('10889-08-02 05:31:50.656');
SELECT ulid_least('infinity');
SELECT uuid_v7_least('-infinity');
SELECT uuid_version(uuid_v7_least(now())), uuid_timestamp(uuid_v7_greatest('2026-03-04 05:06:07.089'));

-- typeid: the prefix and the UUID, 1 + prefix length + 16 bytes in a table
SELECT 'user_01h455vb4pex5vsknk084sn02q'::typeid, typeid_prefix('user_01h455vb4pex5vsknk084sn02q'::typeid),
       'user_01h455vb4pex5vsknk084sn02q'::typeid::uuid, typeid_uuid('01h455vb4pex5vsknk084sn02q');
SELECT typeid('user', '01890a5d-ac96-774b-bcce-b302099a8057'), typeid('', '01890a5d-ac96-774b-bcce-b302099a8057');
SELECT typeid_send('user_01h455vb4pex5vsknk084sn02q');
SELECT 'User_01h455vb4pex5vsknk084sn02q'::typeid;
SELECT 'user_01H455VB4PEX5VSKNK084SN02Q'::typeid;
SELECT typeid('User', '01890a5d-ac96-774b-bcce-b302099a8057');
-- B-tree indexes over typeid deduplicate: with duplicates, the size of a bytea index over the same bytes
CREATE TABLE repeated AS SELECT t, typeid_send(t) AS b FROM (SELECT typeid('user', md5(i::text)::uuid) AS t
    FROM generate_series(1, 50) i) s, generate_series(1, 100);
CREATE INDEX repeated_t ON repeated (t);
CREATE INDEX repeated_b ON repeated (b);
SELECT pg_relation_size('repeated_t') = pg_relation_size('repeated_b') AS deduplicated;
DROP TABLE repeated;
CREATE DOMAIN user_id AS typeid CHECK (typeid_prefix(VALUE) = 'user');
CREATE TABLE users (id user_id PRIMARY KEY DEFAULT typeid('user', uuid_v7_least('2026-01-01')), name text);
CREATE TABLE posts (id typeid PRIMARY KEY, author user_id REFERENCES users, title text);
INSERT INTO users (name) VALUES ('ada');
INSERT INTO users VALUES ('user_01h455vb4pex5vsknk084sn02q', 'grace');
INSERT INTO users VALUES ('post_01h455vb4pex5vsknk084sn02q', 'wrong prefix');
INSERT INTO posts VALUES ('post_01h455vb4pex5vsknk084sn02q', 'user_01h455vb4pex5vsknk084sn02q', 'hello');
INSERT INTO posts VALUES ('post_01h455vb4pex5vsknk084sn02r', 'user_01h455vb4pex5vsknk084sn02r', 'nobody');
SELECT u.id, u.name, pg_column_size(u.id) AS bytes, pg_column_size(u.id::text) AS text_bytes FROM users u ORDER BY u.id;
SELECT p.title, u.name FROM posts p JOIN users u ON u.id = p.author;
-- order: by prefix (shorter first), then by UUID
SELECT v FROM (VALUES ('users_00000000000000000000000000'::typeid), ('user_7zzzzzzzzzzzzzzzzzzzzzzzzz'),
                      ('user_00000000000000000000000000'), ('a_00000000000000000000000001'),
                      ('00000000000000000000000009')) t(v) ORDER BY v;
SELECT min(v), max(v) FROM (VALUES ('users_00000000000000000000000000'::typeid), ('user_7zzzzzzzzzzzzzzzzzzzzzzzzz'),
                                   ('a_00000000000000000000000001')) t(v);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT name FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
SELECT name FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
CREATE INDEX users_hash ON users USING hash (id);
DROP INDEX users_hash;
RESET enable_seqscan;
SELECT typeid_hash('user_01h455vb4pex5vsknk084sn02q') = typeid_hash(typeid('user', '01890a5d-ac96-774b-bcce-b302099a8057')) AS same_hash,
       typeid_hash_extended('user_01h455vb4pex5vsknk084sn02q', 0) <> typeid_hash_extended('post_01h455vb4pex5vsknk084sn02q', 0) AS prefix_hashed;
-- typeid's hash is PostgreSQL's hash of the stored bytes, as bytea's: a typeid goes to the hash partition its
-- binary form goes to among bytea partitions
CREATE TABLE typeid_parts (id typeid) PARTITION BY HASH (id);
CREATE TABLE bytea_parts (b bytea) PARTITION BY HASH (b);
SELECT count(*) AS tried,
       count(*) FILTER (WHERE satisfies_hash_partition('typeid_parts'::regclass, 7, r, id)
                              <> satisfies_hash_partition('bytea_parts'::regclass, 7, r, typeid_send(id))) AS differing
FROM (SELECT typeid(p, gen_random_uuid()) AS id FROM unnest(ARRAY['', 'user', 'a_b']) p, generate_series(1, 200)) s,
     generate_series(0, 6) r;
CREATE TABLE typeid_parts_0 PARTITION OF typeid_parts FOR VALUES WITH (MODULUS 1, REMAINDER 0);
INSERT INTO typeid_parts VALUES ('user_01h455vb4pex5vsknk084sn02q');

-- generators: strictly increasing within a backend; each type's time is now
SELECT bool_and(a < b) AS increasing, count(*) FROM (SELECT gen_ulid() AS a, gen_ulid() AS b FROM generate_series(1, 10000)) s;
SELECT count(DISTINCT id) FROM (SELECT gen_ulid() AS id FROM generate_series(1, 10000)) s;
SELECT abs(extract(epoch FROM gen_ulid()::timestamptz - clock_timestamp())) < 5 AS now;
SELECT typeid_prefix(gen_typeid('user')), uuid_version(gen_typeid('user')::uuid),
       abs(extract(epoch FROM uuid_timestamp(gen_typeid('user')::uuid) - clock_timestamp())) < 5 AS now;
SELECT gen_typeid('User');
SELECT uuid_version(gen_ulid()::uuid);

-- the times and versions of UUIDs: version 1 (the DNS namespace UUID of RFC 4122) and version 7
SELECT uuid_timestamp('6ba7b810-9dad-11d1-80b4-00c04fd430c8'), uuid_version('6ba7b810-9dad-11d1-80b4-00c04fd430c8');
SELECT uuid_timestamp('01890a5d-ac96-774b-bcce-b302099a8057'), uuid_version('01890a5d-ac96-774b-bcce-b302099a8057');
SELECT uuid_timestamp('c232ab00-9414-4b4d-9c6e-1b2e3c4a5d6f') IS NULL AS v4_has_none, uuid_version('c232ab00-9414-4b4d-9c6e-1b2e3c4a5d6f');
SELECT uuid_timestamp('01890a5d-ac96-774b-7cce-b302099a8057') IS NULL AND uuid_version('01890a5d-ac96-774b-7cce-b302099a8057') IS NULL AS other_variant;
-- uuid_generate_v7(shift): now moved by the interval, by the calendar
SELECT abs(extract(epoch FROM uuid_timestamp(uuid_generate_v7('-1 day')) - (clock_timestamp() - interval '1 day'))) < 5 AS day_back,
       abs(extract(epoch FROM uuid_timestamp(uuid_generate_v7('1 mon')) - (clock_timestamp() + interval '1 mon'))) < 5 AS month_on,
       uuid_version(uuid_generate_v7('0'));
SELECT uuid_generate_v7('-100 years');
SELECT uuid_generate_v7('10000 years');
