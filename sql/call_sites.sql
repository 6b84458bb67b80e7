-- A call site (one function call in one expression) prepares its settings once and reuses them while they stay
-- the same. Settings that change between calls of the same call site must each give their own result: from a
-- PL/pgSQL variable (the expression is evaluated again with a new value), a prepared statement's parameter (one
-- execution per value) and a column (one row per value). Each result is compared with the same call made with
-- the settings as constants, in a statement of its own.
CREATE TEMP TABLE setting (n int, salt text, alphabet text, words text[], min_size int);
INSERT INTO setting VALUES
    (1, 'salt one',   'abcdefghijklmnopqrstuvwxyz0123456789', ARRAY['aaa'], 64),
    (2, 'salt two',   '0123456789abcdefghijklmnopqrstuvwxyz', ARRAY['bbb'], 128),
    (3, 'salt three', 'zyxwvutsrqponmlkjihgfedcba9876543210', NULL,          256);

-- the expected results, from constants
CREATE TEMP TABLE expected (n int, result text);
INSERT INTO expected VALUES
    (1, concat_ws(' ', hashids_encode(1, 'salt one'), hashids_decode_one(hashids_encode(7, 'salt one'), 'salt one'),
                  sqids_encode(1, 'abcdefghijklmnopqrstuvwxyz0123456789', 4, ARRAY['aaa']),
                  base62_encode(1000, 'abcdefghijklmnopqrstuvwxyz0123456789'),
                  (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc', 64, 256, 1024)))),
    (2, concat_ws(' ', hashids_encode(1, 'salt two'), hashids_decode_one(hashids_encode(7, 'salt two'), 'salt two'),
                  sqids_encode(1, '0123456789abcdefghijklmnopqrstuvwxyz', 4, ARRAY['bbb']),
                  base62_encode(1000, '0123456789abcdefghijklmnopqrstuvwxyz'),
                  (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc', 128, 256, 1024)))),
    (3, concat_ws(' ', hashids_encode(1, 'salt three'), hashids_decode_one(hashids_encode(7, 'salt three'), 'salt three'),
                  sqids_encode(1, 'zyxwvutsrqponmlkjihgfedcba9876543210', 4, NULL),
                  base62_encode(1000, 'zyxwvutsrqponmlkjihgfedcba9876543210'),
                  (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc', 256, 256, 1024))));
SELECT count(DISTINCT result) AS distinct_expected FROM expected;

-- PL/pgSQL variables: one expression, evaluated once per value
CREATE TEMP TABLE from_variables (n int, result text);
DO $$
DECLARE
    s record;
    r text;
    chunks bigint;
BEGIN
    FOR s IN SELECT * FROM setting ORDER BY n LOOP
        -- a simple expression: PL/pgSQL keeps its call sites from one evaluation to the next
        r := concat_ws(' ', hashids_encode(1, s.salt), hashids_decode_one(hashids_encode(7, s.salt), s.salt),
                       sqids_encode(1, s.alphabet, 4, s.words), base62_encode(1000, s.alphabet));
        SELECT count(*) INTO chunks FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc', s.min_size, 256, 1024);
        INSERT INTO from_variables VALUES (s.n, concat_ws(' ', r, chunks));
    END LOOP;
END
$$;
SELECT n, e.result = v.result AS same FROM expected e JOIN from_variables v USING (n) ORDER BY n;

-- a prepared statement's parameters
PREPARE with_settings(text, text, text[], int) AS
    SELECT concat_ws(' ', hashids_encode(1, $1), hashids_decode_one(hashids_encode(7, $1), $1),
                     sqids_encode(1, $2, 4, $3), base62_encode(1000, $2),
                     (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc', $4, 256, 1024)));
CREATE TEMP TABLE from_parameters (n int, result text);
DO $$
DECLARE
    s record;
    r text;
BEGIN
    FOR s IN SELECT * FROM setting ORDER BY n LOOP
        EXECUTE format('EXECUTE with_settings(%L, %L, %L, %s)', s.salt, s.alphabet, s.words, s.min_size) INTO r;
        INSERT INTO from_parameters VALUES (s.n, r);
    END LOOP;
END
$$;
SELECT n, e.result = p.result AS same FROM expected e JOIN from_parameters p USING (n) ORDER BY n;

-- columns: one call site, one row per setting
SELECT n, e.result = concat_ws(' ', hashids_encode(1, s.salt), hashids_decode_one(hashids_encode(7, s.salt), s.salt),
                               sqids_encode(1, s.alphabet, 4, s.words), base62_encode(1000, s.alphabet),
                               (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'fastcdc',
                                                                s.min_size, 256, 1024))) AS same
FROM setting s JOIN expected e USING (n) ORDER BY n;

-- NULL window_size (the algorithm's own window) and an explicit 0 (refused) are different settings: the second
-- row of one call site must not reuse the chunker the first prepared
\set VERBOSITY terse
SELECT w, (SELECT count(*) FROM cdc_chunks(decode(repeat(md5('x'), 200), 'hex'), 'moving_sum', 64, 64, 128,
                                            window_size => w)) AS chunks
FROM (VALUES (1, NULL::int), (2, 0)) AS t(n, w) ORDER BY n;
