-- idcodec 1.4.0: security. The named keys of idcrypt_encode and idcrypt_decode come from a file only the server's
-- user can read, named by idcodec.keyring_file (the library reads it; see CHANGELOG.md); version 7 UUIDs never step
-- back under a fast clock. In SQL, only the two functions' descriptions change.
\echo Use "ALTER EXTENSION idcodec UPDATE TO '1.4.0'" to load this file. \quit

COMMENT ON FUNCTION idcrypt_encode(bigint, text, text, int, text) IS
'encrypted ID under the key of that name in the keyring file (idcodec.keyring_file, readable only by the server)';
COMMENT ON FUNCTION idcrypt_decode(text, text, text, int, text) IS
'the number of an encrypted ID made under the key of that name in the keyring file; NULL for a code not made with it';
