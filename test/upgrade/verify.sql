-- After a major upgrade (pg_upgrade, or pg_dump and pg_restore) of the database test/upgrade/source.sql made:
-- one line per check, "ok: ..." or "FAILED: ...". Needs amcheck in the new installation.
SET client_min_messages = warning;
-- the examples' functions find their tables on the search path
SET search_path = public, shorturl, dedup;
CREATE EXTENSION IF NOT EXISTS amcheck;
\pset format unaligned
\pset tuples_only on
CREATE FUNCTION pg_temp.check(what text, passed boolean, detail text DEFAULT '') RETURNS text LANGUAGE sql AS
    $$ SELECT CASE WHEN passed THEN 'ok: ' ELSE 'FAILED: ' END || what || CASE WHEN detail = '' THEN '' ELSE ' (' || detail || ')' END $$;

SELECT pg_temp.check('idcodec ' || extversion || ' and idcodec_pg_hashids came over, pg_hashids did not',
                     (SELECT count(*) FROM pg_extension WHERE extname IN ('idcodec', 'idcodec_pg_hashids')) = 2
                     AND NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_hashids'))
FROM pg_extension WHERE extname = 'idcodec';

-- 1. Every stored ID and digest as before, and equal to what the new major computes.
WITH now_stored AS (
    SELECT 'account' AS tbl, count(*) AS n, md5(string_agg(public_id, ',' ORDER BY id)) AS digest,
           count(*) FILTER (WHERE public_id IS DISTINCT FROM id_encode(id, 'account salt', 8)) AS differ FROM account
    UNION ALL SELECT 'customer', count(*), md5(string_agg(hashid || sqid, ',' ORDER BY id)),
           count(*) FILTER (WHERE hashid IS DISTINCT FROM hashids_encode(id, 'customer salt', 8)
                            OR sqid IS DISTINCT FROM sqids_encode(id, min_length => 6)) FROM customer
    UNION ALL SELECT 'event', count(*), md5(string_agg(short_id || extract(epoch FROM created), ',' ORDER BY objectid)),
           count(*) FILTER (WHERE short_id IS DISTINCT FROM objectid_compress(objectid)
                            OR created IS DISTINCT FROM objectid_timestamp(objectid)) FROM event
    UNION ALL SELECT 'document', count(*), md5(string_agg(fingerprints::text, ',' ORDER BY id)),
           count(*) FILTER (WHERE fingerprints IS DISTINCT FROM winnow(body, 5, 4)) FROM document
    UNION ALL SELECT 'link', count(*), md5(string_agg(code, ',' ORDER BY id)),
           count(*) FILTER (WHERE code IS DISTINCT FROM
                            base62_mixup(id, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut'))
           FROM shorturl.link
    UNION ALL SELECT 'url_code', count(*), md5(string_agg(code || url, ',' ORDER BY code COLLATE "C")),
           count(*) FILTER (WHERE NOT coalesce(code = ANY (shortcode_candidates(url, length(code), attempt)), false))
           FROM shorturl.url_code
    UNION ALL SELECT 'mongo_document', count(*),
           md5(string_agg(public_id || extract(epoch FROM created), ',' ORDER BY objectid)),
           count(*) FILTER (WHERE public_id IS DISTINCT FROM objectid_compress(objectid)) FROM shorturl.mongo_document
    UNION ALL SELECT 'chunk', count(*), md5(string_agg(digest::text, ',' ORDER BY digest)),
           count(*) FILTER (WHERE digest IS DISTINCT FROM sha256(data)) FROM dedup.chunk
    UNION ALL SELECT 'file', count(*), md5(string_agg(name || chunks::text, ',' ORDER BY name)),
           count(*) FILTER (WHERE length(dedup.restore(name)) <> size) FROM dedup.file
    UNION ALL SELECT 'member', count(*), md5(string_agg(id::text, ',' ORDER BY id)),
           count(*) FILTER (WHERE id IS DISTINCT FROM
                            typeid('member', uuid_v7_least(timestamptz '2026-01-01 00:00:00+00' + made * interval '1 minute'))::member_id)
           FROM member
    UNION ALL SELECT 'activity', count(*),
           md5(string_agg(id::text || member::text || tableoid::regclass::text, ',' ORDER BY id)),
           count(*) FILTER (WHERE id IS DISTINCT FROM ulid_least(timestamptz '2026-01-01 00:00:00+00' + n * interval '1 second'))
           FROM activity
)
SELECT pg_temp.check(format('%s: %s rows, stored values as before and as computed now', b.tbl, b.n),
                     b.n > 0 AND b.n = s.n AND b.digest = s.digest AND s.differ = 0,
                     CASE WHEN s.differ > 0 THEN s.differ || ' differ from a fresh computation'
                          WHEN b.digest IS DISTINCT FROM s.digest THEN 'not as stored before the upgrade' ELSE '' END)
FROM before_upgrade b LEFT JOIN now_stored s USING (tbl) ORDER BY b.tbl;

-- The dedup store restores every file to the content it was made from.
SELECT pg_temp.check(format('dedup: all %s files restored byte for byte', count(*)),
                     count(*) = 20 AND bool_and(dedup.restore(name) = convert_to(repeat(md5(g::text) || ' shared text ', 2000 + g * 50), 'UTF8')))
FROM generate_series(1, 20) g JOIN dedup.file ON name = 'data-' || g || '.bin';

-- 2. Every B-tree (with every heap tuple found in it) and every GIN index intact: amcheck raises what it finds.
CREATE FUNCTION pg_temp.intact(index regclass, method name) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF method = 'btree' THEN PERFORM bt_index_check(index, true); ELSE PERFORM gin_index_check(index); END IF;
    RETURN true;
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'amcheck on %: %', index, SQLERRM;
    RETURN false;
END $$;
SELECT pg_temp.check(format('amcheck: %s B-tree indexes (every heap tuple found in them) and %s GIN index intact',
                            count(*) FILTER (WHERE a.amname = 'btree'), count(*) FILTER (WHERE a.amname = 'gin')),
                     count(*) FILTER (WHERE a.amname = 'btree') >= 80 AND count(*) FILTER (WHERE a.amname = 'gin') = 1
                     AND bool_and(pg_temp.intact(c.oid, a.amname)))
FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'i' AND a.amname IN ('btree', 'gin') AND n.nspname IN ('public', 'shorturl', 'dedup');

-- 3. Lookups use their indexes and find their rows.
CREATE FUNCTION pg_temp.plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP plan := plan || line || ' '; END LOOP;
    RETURN plan;
END $$;
SELECT pg_temp.check(format('%s uses %s', what, index_name), pg_temp.plan(query) LIKE '%' || index_name || '%',
                     pg_temp.plan(query))
FROM (VALUES
    ('a lookup by hashid', 'customer_hashid_key', $$SELECT id FROM customer WHERE hashid = 'O2JqGW9Y'$$),
    ('a lookup by sqid', 'customer_sqid_key', $$SELECT id FROM customer WHERE sqid = sqids_encode(42, min_length => 6)$$),
    ('a lookup through a decoding SQL function', 'customer_pkey', $$SELECT name FROM customer WHERE id = customer_id('O2JqGW9Y')$$),
    ('a lookup by short ObjectId', 'event_short_id_key', $$SELECT objectid FROM event WHERE short_id = objectid_compress(left(md5('event 42'), 24))$$),
    ('a lookup by compressed uuid', 'event_by_short_trace', $$SELECT objectid FROM event WHERE uuid_compress(trace) = uuid_compress(md5('trace 42')::uuid)$$),
    ('a lookup through the view', 'invoice_by_hashid', $$SELECT amount FROM public_invoice WHERE invoice_id = hashids_encode(42, 'invoice salt', 10)$$),
    ('a lookup by base62 code', 'invoice_by_base62', $$SELECT amount FROM public_invoice WHERE short_id = base62_encode(42)$$),
    ('a taken-over pg_hashids expression index', 'account_by_public_id', $$SELECT id FROM account WHERE id_decode_once(public_id, 'account salt', 8) = 4242$$),
    ('a near-duplicate search', 'document_fingerprints', $$SELECT id FROM document WHERE fingerprints @> winnow(md5('42'), 5, 4)$$),
    ('a short URL lookup, in the partition of its first character', 'url_code_71_pkey', $$SELECT url FROM url_code WHERE code = 'GgalHkii'$$),
    ('a lookup by ulid key, in its hash partition', '_pkey on activity_', $$SELECT n FROM activity WHERE id = ulid_least('2026-01-01 00:00:42+00')$$),
    ('a lookup by typeid key of a domain', 'member_pkey', $$SELECT made FROM member WHERE id = 'member_01kdvdq4k0e008000000000000'$$),
    ('a lookup by typeid in a hash index', 'activity_', $$SELECT count(*) FROM activity WHERE member = 'member_01kdvdq4k0e008000000000000'$$),
    ('a link code lookup', 'link_code_key', $$SELECT url FROM shorturl.link WHERE code = base62_mixup(1000000, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut')$$)
) AS t(what, index_name, query);
-- hashids.js 2.3.0 gives O2JqGW9Y for 42 with 'customer salt' and min_length 8
SELECT pg_temp.check('the lookups find their rows',
    (SELECT id FROM customer WHERE hashid = 'O2JqGW9Y') = 42
    AND (SELECT name FROM customer WHERE id = customer_id('O2JqGW9Y')) = 'customer 42'
    AND (SELECT amount FROM public_invoice WHERE invoice_id = hashids_encode(42, 'invoice salt', 10)) = 63
    AND invoice_id(hashids_encode(42, 'invoice salt', 10)) = 42
    AND (SELECT id FROM account WHERE id_decode_once(public_id, 'account salt', 8) = 4242) = 4242
    -- the documents holding md5('42'): 42, and 6 (whose second hash is md5(6 * 7))
    AND (SELECT array_agg(id ORDER BY id) FROM document WHERE fingerprints @> winnow(md5('42'), 5, 4)) = '{6,42}'
    -- the short-URL example's own code for this URL
    AND (SELECT url FROM url_code WHERE code = 'GgalHkii') = 'http://www.sina.com.cn/'
    AND (SELECT url FROM url_code WHERE code = shorten('https://example.org/article/7')) = 'https://example.org/article/7'
    -- 2026-01-01 00:00:42 is row 42; member_01kdvdq4k0e008000000000000 (typeid-js 1.2.0's TypeID of the least
    -- version 7 UUID of 2026-01-01 00:01:00 UTC) is member 1, the member of 6 activities in 30,000
    AND (SELECT n FROM activity WHERE id = ulid_least('2026-01-01 00:00:42+00')) = 42
    AND (SELECT made FROM member WHERE id = 'member_01kdvdq4k0e008000000000000') = 1
    AND (SELECT count(*) FROM activity WHERE member = 'member_01kdvdq4k0e008000000000000') = 6);

-- New keys of the types are made on the new major, after the old ones.
INSERT INTO member VALUES (gen_typeid('member'), 5001);
INSERT INTO activity SELECT gen_ulid(), id, 30001 FROM member WHERE made = 5001;
SELECT pg_temp.check('new ulid and typeid keys come after those made on the old major',
                     (SELECT n FROM activity ORDER BY id DESC LIMIT 1) = 30001
                     AND (SELECT made FROM member ORDER BY id DESC LIMIT 1) = 5001
                     AND (SELECT max(id) FROM activity) = (SELECT id FROM activity WHERE n = 30001));

-- 4. New rows get the IDs the old major gave.
INSERT INTO account SELECT generate_series(20001, 20100);
INSERT INTO customer (name) SELECT 'new customer ' || g FROM generate_series(20001, 20100) g;
INSERT INTO link (url) SELECT 'https://example.org/new-link/' || g FROM generate_series(1, 100) g;
SELECT count(shorten('https://example.org/new/' || g)) >= 0 FROM generate_series(1, 100) g \g /dev/null
SELECT pg_temp.check(format('%s: %s new rows got the IDs the old major gave', t.tbl, count(e.id)),
                     count(e.id) = 100 AND count(*) FILTER (WHERE e.public_id = fresh.public_id) = 100)
FROM (VALUES ('account'), ('customer'), ('link'), ('url_code')) AS t(tbl)
LEFT JOIN expected_id e USING (tbl)
LEFT JOIN LATERAL (
    SELECT public_id FROM account WHERE e.tbl = 'account' AND id = e.id
    UNION ALL SELECT hashid || ' ' || sqid FROM customer WHERE e.tbl = 'customer' AND id = e.id
    UNION ALL SELECT code FROM shorturl.link WHERE e.tbl = 'link' AND id = e.id
    UNION ALL SELECT code FROM shorturl.url_code WHERE e.tbl = 'url_code' AND url = 'https://example.org/new/' || e.id
) fresh ON true
GROUP BY t.tbl ORDER BY t.tbl;
