-- The chaos driver's workload: a short-URL service with hit counting, rows with generated public IDs, and a
-- deduplicating file store. Every change an operation makes is one statement, so it commits whole or not at all.
\set schema chaos
\ir ../../examples/fresh_schema.sql

CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL UNIQUE, attempt int NOT NULL);
\ir ../../examples/hit_count.sql
\ir ../../examples/shorturl_service.sql

CREATE TABLE account (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'chaos accounts', 8)) STORED UNIQUE
);

CREATE TABLE chunk (digest bytea PRIMARY KEY, data bytea NOT NULL);
CREATE TABLE file (name text PRIMARY KEY, size bigint NOT NULL, chunks bytea[] NOT NULL);
\ir ../../examples/dedup_store.sql
