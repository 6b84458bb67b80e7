-- idcodec 0.4.0: rolling hashes, Rabin-Karp search, content-defined chunking and winnowing (seed 004)
\echo Use "ALTER EXTENSION idcodec UPDATE TO '0.4.0'" to load this file. \quit

CREATE FUNCTION rolling_hash(data bytea, window_size int, algorithm text DEFAULT 'rabin_karp', seed bigint DEFAULT 0)
RETURNS TABLE(pos bigint, hash bigint)
AS 'MODULE_PATHNAME', 'idcodec_rolling_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION rolling_hash(bytea, int, text, bigint) IS
'the hash of every window of window_size bytes (pos: 0-based offset of its first byte); algorithms rabin_karp, rabin, buzhash, gear, moving_sum';

CREATE FUNCTION rolling_hash(data text, window_size int, algorithm text DEFAULT 'rabin_karp', seed bigint DEFAULT 0)
RETURNS TABLE(pos bigint, hash bigint)
AS 'MODULE_PATHNAME', 'idcodec_rolling_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1000;
COMMENT ON FUNCTION rolling_hash(text, int, text, bigint) IS
'the hash of every window of window_size bytes of the text (pos: 0-based byte offset)';

CREATE FUNCTION rabin_karp_find(haystack text, needle text)
RETURNS SETOF int
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(text, text) IS
'1-based character positions of every occurrence of needle, overlapping ones included (as strpos counts)';

CREATE FUNCTION rabin_karp_find(haystack text, needles text[])
RETURNS TABLE(needle int, pos int)
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_many'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(text, text[]) IS
'every occurrence of each needle (needle: 1-based index in the array) at 1-based character positions';

CREATE FUNCTION rabin_karp_find(haystack bytea, needle bytea)
RETURNS SETOF int
AS 'MODULE_PATHNAME', 'idcodec_rabin_karp_find_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
COMMENT ON FUNCTION rabin_karp_find(bytea, bytea) IS
'1-based byte positions of every occurrence of needle, overlapping ones included';

-- Not STRICT: window_size and digest default to NULL; NULL data or settings give no rows.
CREATE FUNCTION cdc_chunks(data bytea, algorithm text DEFAULT 'fastcdc', min_size int DEFAULT 4096,
                           avg_size int DEFAULT 16384, max_size int DEFAULT 65536, seed bigint DEFAULT 0,
                           window_size int DEFAULT NULL, digest text DEFAULT NULL)
RETURNS TABLE(start bigint, length int, cut_hash bigint, digest bytea)
AS 'MODULE_PATHNAME', 'idcodec_cdc_chunks'
LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION cdc_chunks(bytea, text, int, int, int, bigint, int, text) IS
'content-defined chunks (start is 0-based): fastcdc (fastcdc-rs 4.0.1 v2020), fastcdc2016, ronomon, rabin (restic), buzhash (borg 1.2), moving_sum (gzip --rsyncable); digest => ''sha256'' fills the digest column';

CREATE FUNCTION winnow(data text, k int, w int)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'idcodec_winnow'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION winnow(text, int, int) IS
'winnowing fingerprints (Schleimer, Wilkerson, Aiken 2003): Rabin-Karp hashes of character k-grams, rightmost minimum of each window of w';
