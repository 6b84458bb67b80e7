-- compact identifiers: values from the published examples and from Python's base64/hashlib (independent computations)
\pset null '(null)'
\i test/regress/error_of.sql

-- ObjectIds (the published 16-character example), base64url one argument away, upper case accepted
SELECT objectid_compress('4e7020cb7cac81af7136236b') AS published_example,
       objectid_compress('4E7020CB7CAC81AF7136236B') AS upper_case,
       objectid_compress('4e7020cb7cac81af7136236b',
                         'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') AS base64url;
SELECT objectid_decompress('jD0wOTOIwqZNdydH') AS objectid,
       objectid_decompress('jD0wOTOIwqZNdyd') AS too_short, objectid_decompress('jD0wOTOIwqZNdydHx') AS too_long,
       objectid_decompress('jD0wOTOIwqZNdyd!') AS foreign_character,
       objectid_timestamp('4e7020cb7cac81af7136236b') AT TIME ZONE 'UTC' AS created;

-- UUIDs: 22 characters
SELECT uuid_compress('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS default_alphabet,
       uuid_compress('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
                     'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') AS base64url,
       uuid_compress('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max;
SELECT uuid_decompress('EeWYCpMbjLyXrmKVLjwa4g') AS uuid,
       uuid_decompress('_____________________N') AS noncanonical_padding,
       uuid_decompress('EeWYCpMbjLyXrmKVLjwa4') AS too_short;

-- base62 and its mixup (the published example)
SELECT base62_encode(123456789, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut') AS "RYswX",
       base62_mixup(123456789, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut') AS "wXRYs",
       base62_mixup(123456796, 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut') AS "swWRY",
       base62_unmixup('wXRYs', 's9LFkgy5RovixI1aOf8UhdY3r4DMplQZJXPqebE0WSjBn7wVzmN2Gc6THCAKut') AS unmixed;
SELECT base62_encode(0) AS zero, base62_encode(61) AS "61", base62_encode(62) AS "62",
       base62_encode(9223372036854775807) AS max, base62_decode('AzL8n0Y58m7') AS decoded,
       base62_decode('AzL8n0Y58m8') AS overflow, base62_decode('') AS empty, base62_decode('a-b') AS foreign,
       base62_decode('00z') AS fixed_width;
SELECT base62_encode(10, '01') AS binary, base62_decode('1010', '01') AS from_binary,
       base62_encode(12345, '日本語の') AS unicode, base62_decode(base62_encode(12345, '日本語の'), '日本語の') AS back;
-- the default alphabet is in ASCII order, so equal-length codes sort like their numbers under the C collation
SELECT bool_and(base62_encode(n) COLLATE "C" < base62_encode(n + 1) COLLATE "C") AS sorted_like_numbers
FROM generate_series(238328, 250000) AS n;  -- 238328 = 62^3: all four-character codes here

-- a keyed alphabet: hashids' consistent shuffle (checked against hashids.js util.shuffle)
SELECT alphabet_shuffle('abcdef', 'key') AS shuffled,
       alphabet_shuffle('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 'my secret key') AS keyed,
       alphabet_shuffle('日本語のアルファベット', '鍵') AS unicode, alphabet_shuffle('abc', '') AS no_key;

-- short-URL candidates (the classic MD5 scheme, digit extraction fixed): attempt 0 is the URL's MD5; attempt k hashes url || NUL || k
SELECT shortcode_candidates('http://www.sina.com.cn/') AS eight,
       shortcode_candidates('http://www.sina.com.cn/', 6) AS six,
       shortcode_candidates('http://www.sina.com.cn/', 1) AS one,
       shortcode_candidates('http://www.sina.com.cn/', 8, 1) AS retry_1;
SELECT shortcode_candidates('日本語のURL', 3, 2) AS unicode_url;

-- randomized round trips
SELECT count(*) FILTER (WHERE base62_decode(base62_encode(n)) <> n) AS base62,
       count(*) FILTER (WHERE base62_unmixup(base62_mixup(n)) <> n) AS mixup,
       count(*) FILTER (WHERE base62_decode(base62_encode(n, k), k) <> n) AS keyed,
       count(*) FILTER (WHERE uuid_decompress(uuid_compress(u)) <> u) AS uuid,
       count(*) FILTER (WHERE objectid_decompress(objectid_compress(o)) <> o) AS objectid,
       count(*) AS cases
FROM (SELECT (random() * 9223372036854775807)::bigint >> (random() * 63)::int AS n,
             alphabet_shuffle('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', i::text) AS k,
             gen_random_uuid() AS u,
             substr(md5(i::text) || md5((i + 1)::text), 1, 24) AS o
      FROM generate_series(1, 20000) AS i) AS t;

-- errors and SQLSTATEs
SELECT pg_temp.error_of($$SELECT objectid_compress('4e7020cb7cac81af7136236')$$);
SELECT pg_temp.error_of($$SELECT objectid_compress('4e7020cb7cac81af7136236g')$$);
SELECT pg_temp.error_of($$SELECT objectid_timestamp('nonsense')$$);
SELECT pg_temp.error_of($$SELECT objectid_compress('4e7020cb7cac81af7136236b', 'abc')$$);
SELECT pg_temp.error_of($$SELECT uuid_compress(gen_random_uuid(), '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')$$);
SELECT pg_temp.error_of($$SELECT base62_encode(-1)$$);
SELECT pg_temp.error_of($$SELECT base62_encode(1, 'a')$$);
SELECT pg_temp.error_of($$SELECT base62_encode(1, 'abca')$$);
SELECT pg_temp.error_of($$SELECT base62_decode('abc', 'abca')$$);
SELECT pg_temp.error_of($$SELECT base62_mixup(-5)$$);
SELECT pg_temp.error_of($$SELECT alphabet_shuffle('abca', 'k')$$);
SELECT pg_temp.error_of($$SELECT shortcode_candidates('u', 0)$$);
SELECT pg_temp.error_of($$SELECT shortcode_candidates('u', 9)$$);
SELECT pg_temp.error_of($$SELECT shortcode_candidates('u', 8, -1)$$);
SELECT pg_temp.error_of($$SELECT shortcode_candidates('u', 8, 0, 'aa')$$);

-- NULLs
SELECT objectid_compress(NULL) AS a, uuid_decompress(NULL) AS b, base62_encode(NULL) AS c, base62_decode('1', NULL) AS d,
       shortcode_candidates(NULL) AS e, alphabet_shuffle('abc', NULL) AS f;

-- every function is IMMUTABLE STRICT PARALLEL SAFE
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idcodec'
WHERE p.proname ~ '^(objectid|uuid_(compress|decompress)|base62|alphabet|shortcode)'
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- An empty alphabet is refused, also when the call is folded to a constant while planning (it once stopped the
-- backend with a division by zero).
SELECT pg_temp.error_of($$SELECT alphabet_shuffle('', 'key')$$);
SELECT pg_temp.error_of($$EXPLAIN SELECT alphabet_shuffle('', 'k')$$);
SELECT alphabet_shuffle('x', 'key') AS one_character;

-- Quoted user text is cut on a character boundary: a client in another encoding gets the error itself
-- (22P02), not an "invalid byte sequence" (22021) from a message cut inside a character.
SET client_encoding = 'LATIN1';
\set VERBOSITY sqlstate
SELECT objectid_compress('x' || repeat(chr(233), 40));
\set VERBOSITY default
RESET client_encoding;
SELECT pg_temp.error_of($$SELECT objectid_compress('x' || repeat(chr(233), 40))$$);
