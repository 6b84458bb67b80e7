-- The TypeID specification's own cases (test/vectors/typeid/spec-valid.json and spec-invalid.json) and 400 UUIDs
-- with their TypeID from typeid-js 1.2.0 and ULID from ulid 3.0.2 (ids-oracle.jsonl), through SQL, both ways.
\set valid `cat test/vectors/typeid/spec-valid.json`
\set invalid `cat test/vectors/typeid/spec-invalid.json`
CREATE TEMP TABLE spec_valid AS
SELECT v->>'name' AS name, v->>'typeid' AS typeid, v->>'prefix' AS prefix, (v->>'uuid')::uuid AS id
FROM jsonb_array_elements(:'valid'::jsonb) AS v;
CREATE TEMP TABLE spec_invalid AS
SELECT v->>'name' AS name, v->>'typeid' AS typeid FROM jsonb_array_elements(:'invalid'::jsonb) AS v;

SELECT name, typeid_encode(prefix, id) = typeid AS encoded, typeid_decode(typeid) = id AS decoded,
       typeid_prefix(typeid) = prefix AS prefix_read
FROM spec_valid ORDER BY name COLLATE "C";

-- every invalid case: no UUID, no prefix (NULL, never an error)
SELECT name, typeid_decode(typeid) IS NULL AS no_uuid, typeid_prefix(typeid) IS NULL AS no_prefix
FROM spec_invalid ORDER BY name COLLATE "C";

CREATE TEMP TABLE vector_line (line text);
\copy vector_line FROM 'test/vectors/typeid/ids-oracle.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
CREATE TEMP TABLE oracle AS
SELECT (v->>'uuid')::uuid AS id, v->>'prefix' AS prefix, v->>'typeid' AS typeid, v->>'ulid' AS ulid,
       (v->>'ulid_ms')::bigint AS ms
FROM (SELECT line::jsonb AS v FROM vector_line) AS t;

SELECT count(*) AS records,
       count(*) FILTER (WHERE typeid_encode(prefix, id) = typeid) AS typeid_encoded,
       count(*) FILTER (WHERE typeid_decode(typeid) = id AND typeid_prefix(typeid) = prefix) AS typeid_decoded,
       count(*) FILTER (WHERE ulid_encode(id) = ulid) AS ulid_encoded,
       count(*) FILTER (WHERE ulid_decode(ulid) = id) AS ulid_decoded,
       count(*) FILTER (WHERE ulid_decode(lower(ulid)) = id) AS ulid_decoded_lowercase,
       count(*) FILTER (WHERE extract(epoch FROM ulid_timestamp(ulid)) * 1000 = ms) AS ulid_times,
       count(DISTINCT prefix) AS prefixes
FROM oracle;

-- what differs, were anything to differ
SELECT id, typeid, ulid FROM oracle
WHERE typeid_encode(prefix, id) IS DISTINCT FROM typeid OR typeid_decode(typeid) IS DISTINCT FROM id
   OR ulid_encode(id) IS DISTINCT FROM ulid OR ulid_decode(ulid) IS DISTINCT FROM id;
