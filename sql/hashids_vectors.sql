-- Every record of test/vectors/hashids.jsonl (hashids.js 2.3.0) through SQL.
CREATE TEMP TABLE vector_line (line text);
\copy vector_line FROM 'test/vectors/hashids.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
CREATE TEMP TABLE vector AS
SELECT row_number() OVER () AS n, line::jsonb AS v FROM vector_line;

-- numbers as bigint[]; NULL when the reference decoded a number beyond bigint (SQL then expects '{}')
CREATE FUNCTION pg_temp.numbers_of(v jsonb) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN bool_and(x::numeric <= 9223372036854775807) IS NOT FALSE
                THEN coalesce(array_agg(least(x::numeric, 9223372036854775807)::bigint ORDER BY i), '{}') END
    FROM jsonb_array_elements_text(v->'numbers') WITH ORDINALITY AS t(x, i)
$$;

SELECT coalesce(v->>'op', 'encode') AS op, count(*) AS records FROM vector GROUP BY 1 ORDER BY 1;

-- encode records: the hash, and decoding it back
SELECT count(*) FILTER (WHERE encoded = v->>'hash') AS encode_matched,
       count(*) FILTER (WHERE decoded = pg_temp.numbers_of(v)) AS decode_matched,
       count(*) AS records
FROM (SELECT v,
             hashids_encode(pg_temp.numbers_of(v), v->>'salt', (v->>'min_length')::int, v->>'alphabet') AS encoded,
             hashids_decode(v->>'hash', v->>'salt', (v->>'min_length')::int, v->>'alphabet') AS decoded
      FROM vector WHERE v->>'op' IS NULL) AS t;

-- decode records: tampered hashes, decoded as the reference does ('{}' for invalid or beyond bigint)
SELECT count(*) FILTER (WHERE decoded = coalesce(pg_temp.numbers_of(v), '{}')) AS decode_matched,
       count(*) FILTER (WHERE decoded = '{}') AS rejected,
       count(*) AS records
FROM (SELECT v, hashids_decode(v->>'hash', v->>'salt', (v->>'min_length')::int, v->>'alphabet') AS decoded
      FROM vector WHERE v->>'op' = 'decode') AS t;

-- decode_one agrees with decode on every hash
SELECT count(*) AS decode_one_disagreements
FROM vector,
     LATERAL (SELECT hashids_decode(v->>'hash', v->>'salt', (v->>'min_length')::int, v->>'alphabet') AS d) AS t
WHERE hashids_decode_one(v->>'hash', v->>'salt', (v->>'min_length')::int, v->>'alphabet')
      IS DISTINCT FROM (CASE WHEN cardinality(d) = 1 THEN d[1] END);

-- encode_hex records, and hex round trips
SELECT count(*) FILTER (WHERE encoded = v->>'hash') AS encode_hex_matched,
       count(*) FILTER (WHERE hashids_decode_hex(encoded, v->>'salt', (v->>'min_length')::int, v->>'alphabet')
                              = lower(v->>'hex')) AS round_trips,
       count(*) AS records
FROM (SELECT v, hashids_encode_hex(v->>'hex', v->>'salt', (v->>'min_length')::int, v->>'alphabet') AS encoded
      FROM vector WHERE v->>'op' = 'encode_hex') AS t;

-- any record that does not match, for diagnosis (none expected)
SELECT n, v FROM vector
WHERE (v->>'op' IS NULL AND hashids_encode(pg_temp.numbers_of(v), v->>'salt', (v->>'min_length')::int,
                                           v->>'alphabet') <> v->>'hash')
   OR (v->>'op' = 'decode' AND hashids_decode(v->>'hash', v->>'salt', (v->>'min_length')::int, v->>'alphabet')
                               <> coalesce(pg_temp.numbers_of(v), '{}'))
   OR (v->>'op' = 'encode_hex' AND hashids_encode_hex(v->>'hex', v->>'salt', (v->>'min_length')::int,
                                                      v->>'alphabet') <> v->>'hash')
ORDER BY n LIMIT 10;
