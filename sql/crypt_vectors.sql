-- Every record of test/vectors/ff1/ through SQL, both ways: NIST SP 800-38G's nine FF1 samples and 300 FF1 cases
-- of @noble/ciphers 2.4.0 (numerals written with an alphabet of their radix), and its 300 encrypted IDs.
CREATE TEMP TABLE vector_line (file text, line text);
\copy vector_line (line) FROM 'test/vectors/ff1/nist-samples.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
UPDATE vector_line SET file = 'nist-samples' WHERE file IS NULL;
\copy vector_line (line) FROM 'test/vectors/ff1/ff1-noble.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
UPDATE vector_line SET file = 'ff1-noble' WHERE file IS NULL;
\copy vector_line (line) FROM 'test/vectors/ff1/idcrypt-noble.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
UPDATE vector_line SET file = 'idcrypt-noble' WHERE file IS NULL;

-- An alphabet of `radix` characters: 0-9a-z as NIST's samples write them, then code points from U+0100.
CREATE FUNCTION pg_temp.alphabet(radix int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(CASE WHEN k < 36 THEN substr('0123456789abcdefghijklmnopqrstuvwxyz', k + 1, 1)
                           ELSE chr(256 + k) END, '' ORDER BY k)
    FROM generate_series(0, radix - 1) AS k
$$;
CREATE FUNCTION pg_temp.spelled(numerals jsonb, alphabet text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(substr(alphabet, x::int + 1, 1), '' ORDER BY i)
    FROM jsonb_array_elements_text(numerals) WITH ORDINALITY AS t(x, i)
$$;

CREATE TEMP TABLE ff1_case AS
SELECT file, decode(v->>'key', 'hex') AS key, decode(v->>'tweak', 'hex') AS tweak, a AS alphabet,
       pg_temp.spelled(v->'pt', a) AS pt, pg_temp.spelled(v->'ct', a) AS ct, v->>'ct_text' AS ct_text
FROM (SELECT file, line::jsonb AS v, pg_temp.alphabet((line::jsonb->>'radix')::int) AS a
      FROM vector_line WHERE file <> 'idcrypt-noble') AS t;

SELECT file, count(*) AS records,
       count(*) FILTER (WHERE ff1_encrypt(pt, key, alphabet, tweak) = ct) AS encrypted,
       count(*) FILTER (WHERE ff1_decrypt(ct, key, alphabet, tweak) = pt) AS decrypted,
       count(*) FILTER (WHERE ct_text = ct) AS nist_text_matched
FROM ff1_case GROUP BY file ORDER BY file;

-- The nine NIST samples as the standard prints them.
SELECT length(key) * 8 AS aes, length(alphabet) AS radix, tweak, pt, ff1_encrypt(pt, key, alphabet, tweak) AS ct
FROM ff1_case WHERE file = 'nist-samples' ORDER BY length(key), length(alphabet), length(tweak);

CREATE TEMP TABLE id_case AS
SELECT (v->>'number')::bigint AS number, decode(v->>'key', 'hex') AS key, v->>'tweak' AS tweak,
       (v->>'length')::int AS length, v->>'alphabet' AS alphabet, v->>'code' AS code
FROM (SELECT line::jsonb AS v FROM vector_line WHERE file = 'idcrypt-noble') AS t;

SELECT count(*) AS records,
       count(*) FILTER (WHERE idcrypt_encode(number, key, tweak, length, alphabet) = code) AS encoded,
       count(*) FILTER (WHERE idcrypt_decode(code, key, tweak, length, alphabet) = number) AS decoded,
       count(DISTINCT length(alphabet)) AS alphabets, min(length) AS shortest, max(length) AS longest
FROM id_case;

-- what differs, were anything to differ
SELECT file, pt, ct FROM ff1_case
WHERE ff1_encrypt(pt, key, alphabet, tweak) IS DISTINCT FROM ct OR ff1_decrypt(ct, key, alphabet, tweak) IS DISTINCT FROM pt;
SELECT number, code FROM id_case
WHERE idcrypt_encode(number, key, tweak, length, alphabet) IS DISTINCT FROM code
   OR idcrypt_decode(code, key, tweak, length, alphabet) IS DISTINCT FROM number;
