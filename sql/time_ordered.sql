-- TypeID, ULID and version 7 UUIDs: NULLs, errors, the lenient ULID reading, generation (monotonic over 100,000 IDs
-- in one backend), the column pattern, and compact UUIDs that sort like the UUIDs.
\i test/regress/error_of.sql

-- NULL in, NULL out; malformed text decodes to NULL, never an error.
SELECT typeid_encode(NULL, gen_random_uuid()) IS NULL AS prefix, typeid_encode('user', NULL) IS NULL AS id,
       typeid_decode(NULL) IS NULL AS typeid, typeid_prefix(NULL) IS NULL AS typeid_prefix,
       ulid_encode(NULL) IS NULL AS ulid_of, ulid_decode(NULL) IS NULL AS ulid, ulid_timestamp(NULL) IS NULL AS ulid_time,
       typeid_generate(NULL) IS NULL AS generated;
SELECT t AS text, ulid_decode(t) AS ulid_decoded, typeid_decode(t) AS typeid_decoded
FROM (VALUES ('01H455VB4PEX5VSKNK084SN02Q'), ('01h455vb4pex5vsknk084sn02q'), ('O1H455VB4PEX5VSKNK084SNO2Q'),
             ('0000000000000000000000000I'), ('0000000000000000000000000l'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('01H455VB4PEX5VSKNK084SN02'), ('01H455VB4PEX5VSKNK084SN02QQ'),
             ('01H455VB4PEX5VSKNK084SN02U'), ('01H455VB4PEX5VSKNK084SN0-Q'), (''), ('日本語')) AS v(t)
ORDER BY t COLLATE "C";
SELECT ulid_timestamp('01H455VB4PEX5VSKNK084SN02Q') AT TIME ZONE 'UTC' AS ulid_time,
       ulid_timestamp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AT TIME ZONE 'UTC' AS latest, ulid_timestamp('8ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS overflow;

-- A prefix the specification forbids is an error (22023), quoting at most 64 bytes of it.
SELECT pg_temp.error_of(format('SELECT typeid_encode(%L, gen_random_uuid())', p))
FROM (VALUES ('User'), ('user1'), ('_user'), ('user_'), ('us-er'), ('é'), (repeat('a', 64)), (repeat('a', 100) || '!')) AS v(p);
SELECT length(typeid_encode(repeat('a', 63), gen_random_uuid())) AS longest_prefix,
       typeid_encode('', '00000000-0000-0000-0000-000000000000') AS no_prefix;

-- Generation: 100,000 version 7 UUIDs in one backend, each after the one before, all distinct, with the version and
-- variant bits of RFC 9562 and the time of now.
CREATE TEMP TABLE generated AS SELECT n, uuid_generate_v7() AS u FROM generate_series(1, 100000) AS n;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE u <= previous) AS not_after_the_previous,
       count(*) FILTER (WHERE substr(u::text, 15, 1) = '7' AND substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS v7,
       bool_and(ulid_timestamp(ulid_encode(u)) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS time_of_now
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS previous FROM generated) AS t;
-- TypeIDs and ULIDs generated are ordered too, as text (COLLATE "C") and as their UUIDs.
CREATE TEMP TABLE generated_text AS
SELECT n, typeid_generate('order') AS typeid, ulid_generate() AS ulid FROM generate_series(1, 10000) AS n;
SELECT count(*) FILTER (WHERE typeid <= previous_typeid COLLATE "C") AS typeids_not_after,
       count(*) FILTER (WHERE ulid <= previous_ulid COLLATE "C") AS ulids_not_after,
       count(*) FILTER (WHERE typeid_decode(typeid) <= typeid_decode(previous_typeid)) AS typeid_uuids_not_after,
       bool_and(typeid_prefix(typeid) = 'order') AS prefixes,
       bool_and(ulid_decode(ulid) IS NOT NULL AND ulid = upper(ulid)) AS ulids
FROM (SELECT typeid, ulid, lag(typeid) OVER (ORDER BY n) AS previous_typeid, lag(ulid) OVER (ORDER BY n) AS previous_ulid
      FROM generated_text) AS t;

-- The column pattern: a uuid key defaulting to a version 7 UUID, its TypeID a stored generated column with a
-- unique index, and lookups that decode the TypeID to the key.
CREATE TABLE app_user (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    public_id text GENERATED ALWAYS AS (typeid_encode('user', id)) STORED UNIQUE,
    name text NOT NULL
);
INSERT INTO app_user (name) SELECT 'user ' || i FROM generate_series(1, 1000) AS i;
SELECT count(*) AS users, count(*) FILTER (WHERE typeid_decode(public_id) = id) AS decode_to_their_key,
       count(*) FILTER (WHERE public_id LIKE 'user\_%' AND length(public_id) = 31) AS well_formed
FROM app_user;
PREPARE user_by_public_id(text) AS SELECT name FROM app_user WHERE id = typeid_decode($1);
CREATE TEMP TABLE wanted AS SELECT public_id AS code FROM app_user WHERE name = 'user 500';
SELECT (SELECT name FROM app_user WHERE id = typeid_decode(code)) AS found FROM wanted;
EXECUTE user_by_public_id('user_not-a-typeid');
-- inserted in order, the keys are in order, and so are the TypeIDs
SELECT count(*) FILTER (WHERE id <= previous) AS keys_out_of_order
FROM (SELECT id, lag(id) OVER (ORDER BY substr(name, 6)::int) AS previous FROM app_user) AS t;
DROP TABLE app_user;

-- Compact UUIDs and ObjectIds that sort like the values: an alphabet in ASCII order ('-', digits, upper case, '_',
-- lower case) makes uuid_compress and objectid_compress text compare under COLLATE "C" as the bytes do. The default
-- alphabet (base64url) does not.
CREATE TEMP TABLE sortable AS
SELECT u, uuid_compress(u, '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz') AS ordered,
       uuid_compress(u) AS default_alphabet
FROM (SELECT u FROM generated WHERE n % 10 = 0 UNION ALL SELECT gen_random_uuid() FROM generate_series(1, 10000)) AS t;
SELECT count(*) AS uuids,
       count(*) FILTER (WHERE (a.u < b.u) <> (a.ordered COLLATE "C" < b.ordered COLLATE "C")) AS ordered_alphabet_disagrees,
       count(*) FILTER (WHERE (a.u < b.u) <> (a.default_alphabet COLLATE "C" < b.default_alphabet COLLATE "C")) > 0
           AS default_alphabet_disagrees
FROM (SELECT u, ordered, default_alphabet, row_number() OVER (ORDER BY random()) AS k FROM sortable) AS a
JOIN (SELECT u, ordered, default_alphabet, row_number() OVER (ORDER BY random()) AS k FROM sortable) AS b USING (k);
SELECT count(*) FILTER (WHERE (a.o < b.o) <> (a.c COLLATE "C" < b.c COLLATE "C")) AS objectids_disagree
FROM (SELECT o, objectid_compress(o, '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz') AS c,
             row_number() OVER () AS k
      FROM (SELECT md5(i::text)::text AS h, i FROM generate_series(1, 5000) AS i) AS t, LATERAL (SELECT left(h, 24) AS o) AS x) AS a
JOIN (SELECT o, objectid_compress(o, '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz') AS c,
             row_number() OVER () AS k
      FROM (SELECT md5((i * 7)::text)::text AS h, i FROM generate_series(1, 5000) AS i) AS t, LATERAL (SELECT left(h, 24) AS o) AS x) AS b
USING (k);
