-- The short-URL service's hit counts (examples/hit_count.sql) and its batch calls (examples/shorturl_service.sql),
-- on the tables examples/shorturl.sql leaves in its schema.
\set ECHO none
\o /dev/null
\i examples/shorturl.sql
\o
\set ECHO all
SET search_path = shorturl, public;

-- Batches keep their order, give NULL for an unknown code or a NULL, count a code given twice twice, and an empty
-- batch gives an empty array.
SELECT codes[2] AS sina, codes[3] IS NULL AS null_gives_null, codes[1] = codes[4] AS same_url_same_code,
       codes[1] = (shortcode_candidates('https://www.postgresql.org/docs/'))[1] AS first_candidate,
       cardinality(codes) AS n
FROM (SELECT shorten(ARRAY['https://www.postgresql.org/docs/', 'http://www.sina.com.cn/', NULL,
                           'https://www.postgresql.org/docs/']) AS codes) batch;
SELECT hits_of('url_code', 'GgalHkii') AS before;
SELECT resolve(ARRAY['GgalHkii', NULL, 'unknown', 'GgalHkii']);
SELECT hits_of('url_code', 'GgalHkii') AS after_two_more;
SELECT shorten('{}'::text[]) AS no_urls, resolve('{}'::text[]) AS no_codes, resolve(NULL::text[]) IS NULL AS null_batch;

-- A count spread over rows: the shared row (xact 0) and rows of transactions that found the shared row taken (three,
-- as such transactions would leave them).
INSERT INTO hit_count (code, counted, xact, hits)
VALUES ('GgalHkii', 'url_code', '1000001', 5), ('GgalHkii', 'url_code', '1000002', 7), ('GgalHkii', 'url_code', '1000003', 11);
SELECT hits_of('url_code', 'GgalHkii') AS spread, count(*) AS code_rows
FROM hit_count WHERE code = 'GgalHkii' AND counted = 'url_code';
-- The next follow takes the shared row and folds the others into it: read inside its transaction, before its commit,
-- the count is the one before plus its own hit, in one row; rolled back, the rows and the count are as they were.
BEGIN;
SELECT resolve('GgalHkii');
SELECT hits_of('url_code', 'GgalHkii') AS during_the_fold, count(*) AS code_rows
FROM hit_count WHERE code = 'GgalHkii' AND counted = 'url_code';
ROLLBACK;
SELECT hits_of('url_code', 'GgalHkii') AS after_rollback, count(*) AS code_rows
FROM hit_count WHERE code = 'GgalHkii' AND counted = 'url_code';
SELECT resolve('GgalHkii');
SELECT hits_of('url_code', 'GgalHkii') AS folded, count(*) AS code_rows, min(xact::text) AS shared_row
FROM hit_count WHERE code = 'GgalHkii' AND counted = 'url_code';
-- A code of link and one of url_code may be equal: their counts are apart.
SELECT hits_of('link', 'GgalHkii') AS link_hits;
-- public_link shows the exact counts.
SELECT code, hits FROM public_link ORDER BY code;
