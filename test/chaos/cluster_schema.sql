-- The cluster driver's tables (test/chaos/cluster_driver.cpp), distributed over a Citus cluster: rows keyed by a
-- generated ulid, a generated typeid, and a bigserial shown as a hashid; the short-URL service distributed by code.
-- Run on the coordinator.
\set schema fleet
\ir ../../examples/fresh_schema.sql

CREATE TABLE event (id ulid PRIMARY KEY DEFAULT gen_ulid(), client int NOT NULL, seq bigint NOT NULL);
SELECT create_distributed_table('event', 'id');
CREATE TABLE member (id typeid PRIMARY KEY DEFAULT gen_typeid('member'), client int NOT NULL, seq bigint NOT NULL);
SELECT create_distributed_table('member', 'id');
CREATE TABLE account (
    id bigserial PRIMARY KEY,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'fleet accounts', 8)) STORED,
    client int NOT NULL,
    seq bigint NOT NULL
);
SELECT create_distributed_table('account', 'id');

CREATE TABLE url_code (code text PRIMARY KEY, url text NOT NULL, attempt int NOT NULL);
SELECT create_distributed_table('url_code', 'code');
-- the hit counts beside their codes: a code's rows on its url_code row's shard
\ir ../../examples/hit_count.sql
SELECT create_distributed_table('hit_count', 'code', colocate_with => 'url_code');
\ir ../../examples/shorturl_service.sql
