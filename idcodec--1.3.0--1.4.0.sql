-- idcodec 1.4.0: security. The named keys of idcrypt_encode and idcrypt_decode come from a file only the server's
-- user can read, named by idcodec.keyring_file (the library reads it; see CHANGELOG.md); version 7 UUIDs never step
-- back under a fast clock. In SQL, only the two functions' descriptions change.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.4.0'" to load this file. \quit

COMMENT ON FUNCTION idcrypt_encode(bigint, text, text, int, text) IS
'encrypted ID under the key of that name in the keyring file (idcodec.keyring_file, readable only by the server)';
COMMENT ON FUNCTION idcrypt_decode(text, text, text, int, text) IS
'the number of an encrypted ID made under the key of that name in the keyring file; NULL for a code not made with it';

-- Keys left in 1.2.0's inline setting idcodec.keyring are not read any more, and a session that has not loaded
-- idcodec holds them where any role can SHOW them: whoever updates is told.
DO $inline_keys$
BEGIN
    IF pg_catalog.length(pg_catalog.current_setting('idcodec.keyring', true)) OPERATOR(pg_catalog.>) 0 THEN
        RAISE WARNING 'idcodec.keyring is set in the server''s configuration: idcodec no longer reads it, and any role can SHOW it in a session that has not loaded idcodec'
            USING HINT = 'Move the keys into a file named by idcodec.keyring_file (readable only by the server''s user) and remove idcodec.keyring from postgresql.conf and postgresql.auto.conf.';
    END IF;
END
$inline_keys$;
