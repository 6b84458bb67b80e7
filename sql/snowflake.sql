-- Snowflake IDs: generation on a node, the layouts' decoders, the public form, taking a column over.
SET timezone = 'UTC';

-- Discord's documentation breaks its example ID down: 2016-04-30 11:18:25.796 UTC, worker 1, process 0, increment 7.
SELECT snowflake_timestamp(175928847299117063, 'discord') AS discord_time,
       snowflake_node(175928847299117063, 'discord') AS worker_and_process,   -- worker 1 << 5 | process 0
       snowflake_counter(175928847299117063, 'discord') AS increment;
-- The same through a custom layout with Discord's epoch and widths.
SELECT snowflake_timestamp(175928847299117063, '2015-01-01 00:00:00+00', '1 millisecond', 10, 12) AS custom_time,
       snowflake_node(175928847299117063, 10, 12) AS node, snowflake_counter(175928847299117063, 10, 12) AS counter;

-- Each layout's epoch is the time of ID 0, and the least ID of its epoch is 0.
SELECT layout, snowflake_timestamp(0, layout) AS epoch, snowflake_least(snowflake_timestamp(0, layout), layout) AS least
FROM unnest(ARRAY['pgedge', 'twitter', 'discord', 'instagram', 'sonyflake', 'mastodon']) AS layout;

-- Fields by hand: time, node and counter placed where each layout puts them.
SELECT snowflake_timestamp((1000::bigint << 22) | (513 << 12) | 4095) = timestamptz '2023-01-01 00:00:01+00' AS pgedge_time,
       snowflake_node((1000::bigint << 22) | (513 << 12) | 4095) AS pgedge_node,
       snowflake_counter((1000::bigint << 22) | (513 << 12) | 4095) AS pgedge_counter,
       snowflake_node((5::bigint << 23) | (8191 << 10) | 3, 'instagram') AS instagram_shard,
       snowflake_counter((5::bigint << 23) | (8191 << 10) | 3, 'instagram') AS instagram_sequence,
       -- Sonyflake: 10 ms units, then the sequence, then the machine
       snowflake_timestamp((100::bigint << 24) | (200 << 16) | 65535, 'sonyflake') AS sonyflake_time,
       snowflake_counter((100::bigint << 24) | (200 << 16) | 65535, 'sonyflake') AS sonyflake_sequence,
       snowflake_node((100::bigint << 24) | (200 << 16) | 65535, 'sonyflake') AS sonyflake_machine,
       snowflake_timestamp((1700000000000::bigint << 16) | 65535, 'mastodon') AS mastodon_time;

-- The largest ID: the last unit of each layout; snowflake_least gives it back.
SELECT layout, snowflake_timestamp(9223372036854775807, layout) AS last_unit,
       snowflake_least(snowflake_timestamp(9223372036854775807, layout), layout)
           = (9223372036854775807 >> n) << n AS least_is_its_unit
FROM (VALUES ('pgedge', 22), ('twitter', 22), ('instagram', 23), ('sonyflake', 24), ('mastodon', 16)) AS l(layout, n);

-- Instagram's 41 + 13 + 10 bits are all 64: from 2046-06-27 17:00:49.497 UTC on, its IDs are negative bigints, and
-- they decode (shard 1234, sequence 567 on 2050-01-01; the layout's last millisecond is 2081-04-30 12:54:37.272).
SELECT snowflake_timestamp(-8293273796013241801, 'instagram') AS instagram_2050,
       snowflake_node(-8293273796013241801, 'instagram') AS shard,
       snowflake_counter(-8293273796013241801, 'instagram') AS sequence,
       snowflake_least('2050-01-01 00:00:00+00', 'instagram') = -8293273796014505984 AS least_2050,
       snowflake_least('2046-06-27 17:00:49.497+00', 'instagram') = -9223372036854775808 AS first_negative,
       snowflake_least('2046-06-27 17:00:49.496+00', 'instagram') = (1099511627775::bigint << 23) AS last_positive,
       snowflake_timestamp(-1, 'instagram') AS last_ms;

-- Units coarser than a millisecond: every time within a unit has the unit's least ID.
SELECT snowflake_least('2024-05-06 07:08:09.120+00', 'sonyflake') = snowflake_least('2024-05-06 07:08:09.129999+00', 'sonyflake')
           AS same_10ms,
       snowflake_least('2024-05-06 07:08:09.130+00', 'sonyflake') - snowflake_least('2024-05-06 07:08:09.129999+00', 'sonyflake')
           = 1 << 24 AS next_10ms,
       snowflake_least('2024-05-06 07:08:09.130+00', '2024-01-01', '1 day', 0, 20) = 126::bigint << 20 AS days_since;

-- Errors: an unknown layout, a negative ID, Mastodon's low bits, times the layout cannot hold, bad custom layouts.
\set VERBOSITY terse
SELECT snowflake_timestamp(1, 'Twitter');
SELECT snowflake_node(1, 'snowflake');
SELECT snowflake_timestamp(-1);
SELECT snowflake_counter(-9223372036854775808, 'twitter');
SELECT snowflake_node(1, 'mastodon');
SELECT snowflake_counter(1, 'mastodon');
SELECT snowflake_least('2022-12-31 23:59:59.999+00');
SELECT snowflake_least('2092-09-06 15:47:35.552+00');
SELECT snowflake_least('2092-09-06 15:47:35.551+00') = (2199023255551 << 22) AS last_pgedge_ms;
SELECT snowflake_least('infinity');
SELECT snowflake_least('-infinity', 'mastodon');
SELECT snowflake_timestamp(1, '2000-01-01', '0', 10, 12);
SELECT snowflake_timestamp(1, '2000-01-01', '-1 ms', 10, 12);
SELECT snowflake_timestamp(1, '2000-01-01', '1 month', 10, 12);
SELECT snowflake_node(1, 32, 0);
SELECT snowflake_node(1, 31, 31);
SELECT snowflake_counter(1, 10, -1);
SELECT snowflake_timestamp(9223372036854775807, '2000-01-01', '1 day', 0, 0);
SELECT snowflake_timestamp(9223372036854775807, '294000-01-01', '1 ms', 0, 22);
SELECT snowflake_least('2000-01-01', 'infinity', '1 ms', 10, 12);
\set VERBOSITY default

-- Generation needs the node's number: unset, it fails; only a superuser sets it.
SHOW idcodec.node_id;
SELECT snowflake_generate();
CREATE ROLE snowflake_writer;
SET ROLE snowflake_writer;
SET idcodec.node_id = 3;
RESET ROLE;
SET idcodec.node_id = 1024;
SET idcodec.node_id = 777;

-- 20,000 IDs in one statement: strictly increasing, the node set, the time now, the counters running on.
-- A millisecond holds 4,096 IDs; a fast machine asking for more waits for the next, so no ID's time is after the
-- clock that follows it, and no millisecond has more than 4,096.
CREATE TEMP TABLE made AS
SELECT g AS n, snowflake_generate() AS id, clock_timestamp() AS after FROM generate_series(1, 20000) g;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(snowflake_node(id) = 777) AS node_777,
       bool_and(id > 0) AS positive,
       bool_and(snowflake_timestamp(id) <= after) AS not_after_the_call,
       bool_and(snowflake_timestamp(id) > now() - interval '1 minute') AS not_long_before
FROM made;
SELECT bool_and(id > previous) AS strictly_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS previous FROM made) s WHERE previous IS NOT NULL;
SELECT max(ids) <= 4096 AS at_most_4096_a_millisecond
FROM (SELECT count(*) AS ids FROM made GROUP BY snowflake_timestamp(id)) per_ms;
-- a parallel plan's workers take from the same counter
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE snowflake_rows AS SELECT g FROM generate_series(1, 30000) g;
ANALYZE snowflake_rows;
EXPLAIN (COSTS OFF) SELECT snowflake_generate() FROM snowflake_rows;
CREATE TEMP TABLE made_in_parallel AS SELECT snowflake_generate() AS id FROM snowflake_rows;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id IN (SELECT id FROM made)) AS also_made_before,
       min(id) > (SELECT max(id) FROM made) AS after_the_earlier_ones
FROM made_in_parallel;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE snowflake_rows;

-- Keys made elsewhere: the counter stays above an ID of a past millisecond; a future or negative one is refused.
SELECT snowflake_generate_above(snowflake_least(clock_timestamp() - interval '1 second') + (5 << 12) + 4095);
SELECT snowflake_generate() > snowflake_least(clock_timestamp() - interval '1 second') AS above;
\set VERBOSITY terse
SELECT snowflake_generate_above(snowflake_least(clock_timestamp() + interval '1 minute'));
SELECT snowflake_generate_above(-1);
\set VERBOSITY default

-- As a column default, with time ranges as index range scans. The plan shown is that of a table without statistics:
-- autovacuum is off for it, as an automatic analyze between the INSERT and the EXPLAIN (a moment on a busy machine)
-- gives a plain Index Scan instead.
CREATE TABLE sf_event (id bigint DEFAULT snowflake_generate() PRIMARY KEY, note text) WITH (autovacuum_enabled = off);
INSERT INTO sf_event (note) SELECT 'sf_event ' || g FROM generate_series(1, 1000) g;
SELECT count(*) AS since_a_minute_ago FROM sf_event WHERE id >= snowflake_least(now() - interval '1 minute');
EXPLAIN (COSTS OFF) SELECT * FROM sf_event WHERE id >= snowflake_least('2026-01-01') AND id < snowflake_least('2026-02-01');

-- The public form: an encrypted ID. Consecutive IDs (a burst in one millisecond, then the next milliseconds) give
-- codes that share no prefix beyond chance and do not sort in creation order, while the IDs' digits share almost all.
CREATE TEMP TABLE burst AS
SELECT row_number() OVER (ORDER BY id) AS n, id, idcrypt_encode(id, '\x000102030405060708090a0b0c0d0e0f'::bytea) AS code
FROM (SELECT snowflake_least('2026-03-04 05:06:07.008+00') + (m::bigint << 22) + (777 << 12) + c AS id
      FROM generate_series(0, 3) m, generate_series(0, 249) c) ids;
CREATE FUNCTION pg_temp.common_prefix(a text, b text) RETURNS int LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(max(i), 0) FROM generate_series(1, least(length(a), length(b))) i
    WHERE left(a, i) = left(b, i)
$$;
SELECT count(*) AS pairs,
       max(pg_temp.common_prefix(b.code, a.code)) < 4 AS no_long_shared_code_prefix,
       round(avg(pg_temp.common_prefix(b.code, a.code)), 2) < 0.1 AS codes_share_as_random_text_does,
       min(pg_temp.common_prefix(b.id::text, a.id::text)) AS shortest_shared_id_prefix,
       count(*) FILTER (WHERE b.code > a.code COLLATE "C") BETWEEN 400 AND 600 AS codes_in_no_order,
       count(*) FILTER (WHERE b.id > a.id) AS ids_in_order
FROM burst a JOIN burst b ON b.n = a.n + 1;
CREATE TABLE sf_customer (id bigint PRIMARY KEY, name text);
INSERT INTO sf_customer SELECT id, 'sf_customer ' || n FROM burst;
ANALYZE sf_customer;
SELECT name FROM sf_customer
WHERE id = idcrypt_decode((SELECT code FROM burst WHERE n = 321), '\x000102030405060708090a0b0c0d0e0f'::bytea);
SELECT code AS code_321 FROM burst WHERE n = 321 \gset
EXPLAIN (COSTS OFF) SELECT name FROM sf_customer
WHERE id = idcrypt_decode(:'code_321', '\x000102030405060708090a0b0c0d0e0f'::bytea);
SELECT snowflake_least('2026-03-04 05:06:07.009+00') + (777 << 12) + 70 AS id_321;

-- Taking an identity column over: its rows stay where they are, new IDs come above them, foreign keys hold.
CREATE TABLE sf_account (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text);
CREATE TABLE sf_invoice (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                      account_id bigint NOT NULL REFERENCES sf_account, amount int);
INSERT INTO sf_account (name) SELECT 'sf_account ' || g FROM generate_series(1, 500) g;
INSERT INTO sf_invoice (account_id, amount) SELECT 1 + g % 500, g FROM generate_series(1, 2000) g;
CREATE TEMP TABLE account_before AS SELECT ctid AS row_ctid, xmin::text AS row_xmin, * FROM sf_account;
SELECT pg_relation_filenode('sf_account') AS filenode_before \gset
SELECT snowflake_convert_column('sf_account', 'id');
SELECT snowflake_convert_column('sf_invoice', 'id');
SELECT pg_relation_filenode('sf_account') = :filenode_before AS same_file,
       (SELECT count(*) FROM account_before b JOIN sf_account a USING (id)
        WHERE a.ctid = b.row_ctid AND a.xmin::text = b.row_xmin AND a.name = b.name) AS rows_untouched;
SELECT column_name, column_default, is_identity FROM information_schema.columns
WHERE table_name IN ('sf_account', 'sf_invoice') AND column_name = 'id' ORDER BY table_name;
INSERT INTO sf_account (name) VALUES ('new sf_account') RETURNING snowflake_node(id) AS node, id > 500 AS above_the_old;
INSERT INTO sf_invoice (account_id, amount) SELECT id, 7 FROM sf_account WHERE name = 'new sf_account';
INSERT INTO sf_invoice (account_id, amount) VALUES (1, 8);
SELECT count(*) AS invoices, count(*) FILTER (WHERE id > 2000) AS new_invoices,
       count(*) FILTER (WHERE snowflake_node(id) = 777 AND id > 2000) AS new_on_node_777 FROM sf_invoice;
-- a serial column: its sequence stays (something else may use it), the default no longer does
CREATE TABLE sf_ticket (id bigserial PRIMARY KEY, subject text);
INSERT INTO sf_ticket (subject) VALUES ('first'), ('second');
SELECT snowflake_convert_column('sf_ticket', 'id');
INSERT INTO sf_ticket (subject) VALUES ('third');
SELECT subject, id < 3 AS old, snowflake_node(id) = 777 AS snowflake FROM sf_ticket ORDER BY id;
SELECT pg_get_serial_sequence('sf_ticket', 'id') IS NOT NULL AS sequence_kept, nextval('sf_ticket_id_seq') AS next_of_it;
-- what cannot be taken over, with the table left as it was
CREATE TABLE sf_narrow (id int GENERATED ALWAYS AS IDENTITY, x int);
CREATE TABLE sf_plain (id bigint, x int);
CREATE TABLE sf_huge (id bigint GENERATED BY DEFAULT AS IDENTITY, x int);
INSERT INTO sf_huge (id) VALUES (9000000000000000000);
\set VERBOSITY terse
SELECT snowflake_convert_column('sf_narrow', 'id');
SELECT snowflake_convert_column('sf_plain', 'id');
SELECT snowflake_convert_column('sf_plain', 'nothing');
SELECT snowflake_convert_column('sf_huge', 'id');
\set VERBOSITY default
SELECT table_name, is_identity, column_default FROM information_schema.columns
WHERE table_name IN ('sf_narrow', 'sf_plain', 'sf_huge') AND column_name = 'id' ORDER BY table_name;
-- only the table's owner may
SET ROLE snowflake_writer;
SELECT snowflake_convert_column('sf_huge', 'id');
RESET ROLE;
-- only tables: a view's column is refused (reading it would run its owner's code), a partition points to its table
CREATE VIEW sf_ticket_view AS SELECT * FROM sf_ticket;
CREATE SEQUENCE sf_view_sequence OWNED BY sf_ticket_view.id;
ALTER VIEW sf_ticket_view ALTER COLUMN id SET DEFAULT nextval('sf_view_sequence');
CREATE TABLE sf_measurement (id bigserial, at date NOT NULL, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
CREATE TABLE sf_measurement_2026 PARTITION OF sf_measurement FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
INSERT INTO sf_measurement (at) VALUES ('2026-06-01');
\set VERBOSITY terse
SELECT snowflake_convert_column('sf_ticket_view', 'id');
SELECT snowflake_convert_column('sf_measurement_2026', 'id');
SELECT snowflake_convert_column(0, 'id');
\set VERBOSITY default
-- the partitioned table: every partition, and partitions made later, take the new default
SELECT snowflake_convert_column('sf_measurement', 'id');
CREATE TABLE sf_measurement_2027 PARTITION OF sf_measurement FOR VALUES FROM ('2027-01-01') TO ('2028-01-01');
INSERT INTO sf_measurement (at) VALUES ('2026-07-01'), ('2027-07-01');
SELECT at, id < 2 AS old, snowflake_node(id) = 777 AS snowflake FROM sf_measurement ORDER BY at;
-- a sf_plain table's inheritance children keep their own defaults
CREATE TABLE sf_parent_row (id bigserial PRIMARY KEY, note text);
CREATE SEQUENCE sf_child_sequence START 1000;
CREATE TABLE sf_child_row (id bigint DEFAULT nextval('sf_child_sequence')) INHERITS (sf_parent_row);
SELECT snowflake_convert_column('sf_parent_row', 'id');
INSERT INTO sf_child_row (note) VALUES ('child');
SELECT id FROM sf_child_row;
-- a relocated extension in a schema whose name needs quotes, with an overload planted beside its functions
CREATE SCHEMA "Key Schema";
ALTER EXTENSION idcodec SET SCHEMA "Key Schema";
CREATE FUNCTION "Key Schema".snowflake_least("at" timestamptz) RETURNS bigint LANGUAGE sql AS 'SELECT 1';
CREATE TABLE sf_moved (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);
SELECT "Key Schema".snowflake_convert_column('sf_moved', 'id');
SELECT pg_get_expr(adbin, adrelid) AS moved_default FROM pg_attrdef WHERE adrelid = 'sf_moved'::regclass;
DROP FUNCTION "Key Schema".snowflake_least(timestamptz);
DROP TABLE sf_moved;
ALTER EXTENSION idcodec SET SCHEMA public;
DROP SCHEMA "Key Schema";
DROP VIEW sf_ticket_view;
DROP TABLE sf_measurement, sf_parent_row CASCADE;
DROP SEQUENCE sf_child_sequence;

DROP TABLE sf_event, sf_customer, sf_invoice, sf_account, sf_ticket, sf_narrow, sf_plain, sf_huge;
DROP ROLE snowflake_writer;
RESET idcodec.node_id;
