-- Every record of test/vectors/sqids.jsonl (sqids 0.3.0) through SQL.
CREATE TEMP TABLE vector_line (line text);
\copy vector_line FROM 'test/vectors/sqids.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
CREATE TEMP TABLE vector AS
SELECT row_number() OVER () AS n, v,
       ARRAY(SELECT x::bigint FROM jsonb_array_elements_text(v->'numbers') WITH ORDINALITY AS t(x, i) ORDER BY i)
           AS numbers,
       CASE WHEN jsonb_typeof(v->'blocklist') = 'array'
            THEN ARRAY(SELECT jsonb_array_elements_text(v->'blocklist')) END AS blocklist
FROM (SELECT line::jsonb AS v FROM vector_line) AS t;

-- the encoding, or the reference's error message
CREATE FUNCTION pg_temp.encoded(numbers bigint[], alphabet text, min_length int, blocklist text[]) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    RETURN sqids_encode(numbers, alphabet, min_length, blocklist);
EXCEPTION WHEN invalid_parameter_value THEN
    RETURN 'error: ' || SQLERRM;
END $$;

SELECT CASE WHEN v->>'blocklist' = 'default' THEN 'default'
            WHEN blocklist = '{}' THEN 'empty' ELSE 'own' END AS blocklist,
       count(*) AS records FROM vector GROUP BY 1 ORDER BY 1;

SELECT count(*) FILTER (WHERE result = coalesce(v->>'id', 'error: ' || (v->>'error'))) AS matched,
       count(*) FILTER (WHERE v->>'error' IS NOT NULL AND result = 'error: ' || (v->>'error')) AS errors_matched,
       count(*) AS records
FROM (SELECT v, pg_temp.encoded(numbers, v->>'alphabet', (v->>'min_length')::int, blocklist) AS result
      FROM vector) AS t;

-- every id decodes back to its numbers, canonically
SELECT count(*) FILTER (WHERE sqids_decode(v->>'id', v->>'alphabet', (v->>'min_length')::int, blocklist, true)
                              = numbers) AS decoded,
       count(*) AS records
FROM vector WHERE v->>'error' IS NULL;

-- any record that does not match, for diagnosis (none expected)
SELECT n, v FROM vector
WHERE pg_temp.encoded(numbers, v->>'alphabet', (v->>'min_length')::int, blocklist)
      IS DISTINCT FROM coalesce(v->>'id', 'error: ' || (v->>'error'))
ORDER BY n LIMIT 10;
