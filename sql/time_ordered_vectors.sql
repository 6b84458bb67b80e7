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

-- The same vectors through the ulid and typeid types (1.5.0): text input and output, the UUID inside, the prefix,
-- the time.
SELECT name, typeid::typeid::text = typeid AS typeid_text, typeid::typeid::uuid = id AS typeid_uuid,
       typeid_prefix(typeid::typeid) = prefix AS typeid_prefix, typeid(prefix, id)::text = typeid AS made
FROM spec_valid ORDER BY name COLLATE "C";

-- every invalid case refused by typeid's input (soft errors need PostgreSQL 16, so each case is tried alone)
CREATE FUNCTION pg_temp.typeid_refused(input text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM input::typeid;
    RETURN 'accepted';
EXCEPTION WHEN invalid_text_representation THEN
    RETURN 'refused';
END $$;
SELECT name, pg_temp.typeid_refused(typeid) FROM spec_invalid ORDER BY name COLLATE "C";

SELECT count(*) AS records,
       count(*) FILTER (WHERE typeid::typeid::text = typeid) AS typeid_text,
       count(*) FILTER (WHERE typeid::typeid::uuid = id AND typeid_prefix(typeid::typeid) = prefix) AS typeid_parts,
       count(*) FILTER (WHERE typeid(prefix, id)::text = typeid) AS typeid_made,
       count(*) FILTER (WHERE ulid::ulid::text = ulid) AS ulid_text,
       count(*) FILTER (WHERE lower(ulid)::ulid::text = ulid) AS ulid_lowercase,
       count(*) FILTER (WHERE ulid::ulid::uuid = id AND id::ulid::text = ulid) AS ulid_uuid,
       count(*) FILTER (WHERE id::text::ulid::text = ulid) AS ulid_from_uuid_text,
       count(*) FILTER (WHERE extract(epoch FROM ulid::ulid::timestamptz) * 1000 = ms) AS ulid_times
FROM oracle;

-- order: ulid as its ULID text (and its uuid), typeid as prefix then UUID
SELECT count(*) FILTER (WHERE a.ulid::ulid < b.ulid::ulid) = count(*) FILTER (WHERE a.ulid COLLATE "C" < b.ulid) AS ulid_order,
       count(*) FILTER (WHERE a.ulid::ulid < b.ulid::ulid) = count(*) FILTER (WHERE a.id < b.id) AS uuid_order,
       count(*) FILTER (WHERE a.typeid::typeid < b.typeid::typeid)
           = count(*) FILTER (WHERE (convert_to(a.prefix, 'UTF8'), a.id) < (convert_to(b.prefix, 'UTF8'), b.id)) AS typeid_order
FROM oracle a CROSS JOIN oracle b;
