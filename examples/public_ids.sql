-- Public IDs with idcodec: what `scripts/demo.sh` runs. Every statement works in a fresh database.
\set ECHO queries
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idcodec;

-- Numbers to short, non-sequential IDs and back
SELECT hashids_encode(347, 'this is my salt') AS one_number,
       hashids_encode(ARRAY[27, 986], 'this is my salt') AS two_numbers,
       hashids_decode('nOSQY', 'this is my salt') AS decoded;

-- A table whose rows get a public id as a generated column; the unique constraint indexes it
DROP TABLE IF EXISTS demo_order CASCADE;
CREATE TABLE demo_order (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item text NOT NULL,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'orders: keep this salt secret', 8)) STORED UNIQUE
);
INSERT INTO demo_order (item) VALUES ('coffee'), ('tea'), ('cake');
SELECT id, item, public_id FROM demo_order ORDER BY id;

-- Looking a row up by its public id (the application only ever sees public_id)
SELECT id, item FROM demo_order WHERE public_id = (SELECT public_id FROM demo_order WHERE item = 'tea');
-- ... or by decoding it, which needs no stored column; tampered ids decode to NULL
SELECT hashids_decode_one(public_id, 'orders: keep this salt secret', 8) AS decoded,
       hashids_decode_one(public_id || 'x', 'orders: keep this salt secret', 8) AS tampered
FROM demo_order WHERE item = 'cake';

-- A view that exposes public IDs only
CREATE VIEW demo_public_order AS
SELECT hashids_encode(id, 'orders: keep this salt secret', 8) AS order_id, item FROM demo_order;
SELECT * FROM demo_public_order ORDER BY item;

DROP TABLE demo_order CASCADE;
