-- idcodec 1.6.2: merge joins of a ulid column with a uuid column on PostgreSQL 17 and later. The equalities
-- ulid = uuid and uuid = ulid, in ulid's B-tree family since 1.5.0 beside every comparison of the two types, get
-- MERGES where ALTER OPERATOR can set it (from 17 on), as a fresh install of 1.6.2 has them there. On 15 and 16 this
-- update changes nothing in the catalog, as a fresh install there has them without MERGES too.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.6.2'" to load this file. \quit

-- The same as in idcodec--1.6.2.sql. (A cluster moved to 17 or later by pg_upgrade from 15 or 16 keeps the operators
-- as they were, without MERGES: docs/upgrading.md says how a superuser sets it there.)
DO $merges$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 170000 THEN
        ALTER OPERATOR = (ulid, pg_catalog.uuid) SET (MERGES);
        ALTER OPERATOR = (pg_catalog.uuid, ulid) SET (MERGES);
    END IF;
END
$merges$;
