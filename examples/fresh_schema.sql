-- How every example begins: idcodec installed, and a fresh schema (the psql variable `schema` names it) first on
-- the search path, so an example can run again and leaves nothing outside its schema.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idcodec;
DROP SCHEMA IF EXISTS :"schema" CASCADE;
CREATE SCHEMA :"schema";
SET search_path = :"schema", public;
