-- idcodec 1.0.0: the first stable release. No function is added or changed in SQL, two descriptions are reworded;
-- what changed is in the library (see CHANGELOG.md). From this release on, every function gives the same output
-- for the same inputs in every later version.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.0.0'" to load this file. \quit

COMMENT ON FUNCTION base62_mixup(bigint, text) IS
'a short-URL code: the base-N code of the number rotated left by the sum of its code points modulo its length';
COMMENT ON FUNCTION shortcode_candidates(text, int, int, text) IS
'four short-URL codes from the MD5 of the URL (attempt 0) or of URL || NUL || attempt (attempt > 0), for collision retries';
