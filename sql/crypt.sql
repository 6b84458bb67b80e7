-- Encrypted IDs and FF1 text: lengths, round trips, tweaks, forged and malformed codes, NULLs, errors and their
-- SQLSTATEs (no message quotes a key or the text), and the column pattern.
CREATE TEMP TABLE k AS SELECT '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea AS key;

-- The default length: the shortest whose forged codes decode with probability below 1e-6.
SELECT length(idcrypt_encode(42, key)) AS base62, length(idcrypt_encode(42, key, alphabet => '0123456789')) AS digits,
       length(idcrypt_encode(42, key, alphabet => '01')) AS bits, length(idcrypt_encode(42, key, length => 20)) AS chosen
FROM k;

-- Round trips: 0 ... 9999 and the ends of bigint, with and without a tweak; every code distinct and 14 characters.
CREATE TEMP TABLE ids AS
SELECT n, idcrypt_encode(n, key) AS plain, idcrypt_encode(n, key, 'customer') AS customer
FROM k, (SELECT generate_series(0, 9999)::bigint AS n UNION ALL VALUES (9223372036854775807)) AS t;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE idcrypt_decode(plain, key) = n) AS decoded,
       count(*) FILTER (WHERE idcrypt_decode(customer, key, 'customer') = n) AS decoded_with_tweak,
       count(DISTINCT plain) AS distinct_codes, count(DISTINCT customer) AS distinct_tweaked,
       min(length(plain)) AS shortest, max(length(plain)) AS longest,
       count(*) FILTER (WHERE plain ~ '^[0-9A-Za-z]{14}$') AS base62_codes
FROM ids, k;
-- Consecutive numbers share no prefix, as sequential IDs would.
SELECT count(*) FILTER (WHERE left(a.plain, 3) = left(b.plain, 3)) AS neighbours_sharing_3_characters
FROM ids AS a JOIN ids AS b ON a.n < 9999 AND b.n = a.n + 1;

-- A code of one tweak (table) does not decode under another, nor under another key; tampered codes do not decode.
SELECT count(idcrypt_decode(customer, key, 'invoice')) AS decoded_as_invoice,
       count(idcrypt_decode(customer, '\x000102030405060708090a0b0c0d0e0f'::bytea, 'customer')) AS other_key,
       count(idcrypt_decode(overlay(customer PLACING (CASE WHEN substr(customer, 7, 1) = 'x' THEN 'y' ELSE 'x' END)
                                    FROM 7 FOR 1), key, 'customer')) AS one_character_changed
FROM ids, k WHERE n < 1000;

-- Malformed codes decode to NULL, never an error.
SELECT idcrypt_decode(code, key) AS decoded, coalesce(code, '(null)') AS code
FROM k, (VALUES (''), ('abc'), ('W2gxMEDBOPiHY'), ('W2gxMEDBOPiHYyz'), ('W2gxMEDB-PiHYy'), ('W2gxMEDBÖPiHYy'),
                (NULL)) AS t(code)
ORDER BY coalesce(code, '(null)') COLLATE "C";

-- NULL in: NULL out; a NULL length is the default length.
SELECT idcrypt_encode(NULL, key) IS NULL AS number, idcrypt_encode(1, NULL::bytea) IS NULL AS key,
       idcrypt_encode(1, key, NULL) IS NULL AS tweak, idcrypt_encode(1, key, alphabet => NULL) IS NULL AS alphabet,
       idcrypt_encode(1, key, length => NULL) = idcrypt_encode(1, key) AS null_length_is_default,
       idcrypt_decode(NULL, key) IS NULL AS code, idcrypt_decode(idcrypt_encode(1, key), key, NULL) IS NULL AS dtweak,
       ff1_encrypt(NULL, key, '0123456789') IS NULL AS ff1_text, ff1_encrypt('123456', key, '0123456789', NULL) IS NULL
           AS ff1_tweak
FROM k;

-- FF1 over text keeps the format: 16 digits stay 16 digits, any alphabet's text stays in it.
SELECT ff1_encrypt('4111111111111111', key, '0123456789') ~ '^[0-9]{16}$' AS card_digits,
       ff1_decrypt(ff1_encrypt('4111111111111111', key, '0123456789'), key, '0123456789') AS card,
       ff1_decrypt(ff1_encrypt('日本語のテキスト', key, '日本語のテキスト文字列'), key, '日本語のテキスト文字列') AS unicode,
       ff1_encrypt('日本語のテキスト', key, '日本語のテキスト文字列') ~ '^[日本語のテキスト文字列]{8}$' AS stays_in_alphabet
FROM k;

-- Errors: what was wrong and the SQLSTATE; no message holds the key's hex (2b7e...) or the plaintext.
\i test/regress/error_of.sql
SELECT error, error ~* '2b7e|4111' AS quotes_a_secret
FROM (SELECT pg_temp.error_of(call) AS error FROM (VALUES
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f'::bytea)$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c00'::bytea)$$),
    ($$SELECT idcrypt_decode('abc', '\x2b7e151628aed2a6abf7158809cf4f'::bytea)$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, alphabet => 'abca')$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, alphabet => 'a')$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, length => 3)$$),
    ($$SELECT idcrypt_encode(14776336, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, length => 4)$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, length => 21)$$),
    ($$SELECT idcrypt_decode('abc', '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, length => 21)$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, length => -1)$$),
    ($$SELECT idcrypt_encode(-1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea)$$),
    ($$SELECT idcrypt_encode(1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, repeat('t', 4097))$$),
    ($$SELECT ff1_encrypt('4111x11111111111', '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789')$$),
    ($$SELECT ff1_decrypt('4111x11111111111', '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789')$$),
    ($$SELECT ff1_encrypt('41111', '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789')$$),
    ($$SELECT ff1_encrypt(repeat('1', 1025), '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789')$$),
    ($$SELECT idcrypt_encode(1, key_name => 'customers')$$),
    ($$SELECT idcrypt_decode('abc', key_name => 'customers')$$)
) AS t(call)) AS e;
-- the decrypting side reports the same as the encrypting side, for a length one past the largest
SELECT pg_temp.error_of($$SELECT ff1_decrypt(repeat('1', 1025), '\x2b7e151628aed2a6abf7158809cf4f3c', '0123456789')$$);

-- The column pattern: an encrypted public ID as a stored generated column with a unique index, looked up by
-- decoding it to the key. (A key literal is readable by every role in the catalog: the keyring file holds keys
-- by name instead; see the README.)
CREATE TABLE crypt_customer (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    public_id text GENERATED ALWAYS AS (idcrypt_encode(id, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'customer')) STORED UNIQUE
);
INSERT INTO crypt_customer (name) SELECT 'customer ' || i FROM generate_series(1, 1000) AS i;
SELECT count(*) AS customers, count(*) FILTER (WHERE idcrypt_decode(public_id, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'customer') = id) AS decode_to_their_id
FROM crypt_customer;
PREPARE by_public_id(text) AS
SELECT name FROM crypt_customer WHERE id = idcrypt_decode($1, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'customer');
CREATE TEMP TABLE wanted AS SELECT public_id AS code FROM crypt_customer WHERE name = 'customer 500';
SELECT (SELECT name FROM crypt_customer WHERE id = idcrypt_decode(code, '\x2b7e151628aed2a6abf7158809cf4f3c'::bytea, 'customer')) AS found
FROM wanted;
EXECUTE by_public_id('not-an-id');
DROP TABLE crypt_customer;
