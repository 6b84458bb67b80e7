#!/usr/bin/env bash
# In databases whose encoding is not UTF-8, text is handled by Unicode code point exactly as in a UTF-8 database,
# and an ID with a character UTF-8 cannot represent is simply not an ID.
set -euo pipefail
export PGCLIENTENCODING=UTF8
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
failures=0
for encoding in EUC_JP LATIN1; do
    db="idcodec_${encoding,,}"
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db TEMPLATE template0 ENCODING '$encoding' LC_COLLATE 'C' LC_CTYPE 'C'"
    salt=$([ "$encoding" = EUC_JP ] && echo '日本語' || echo 'sälz')
    expected=$([ "$encoding" = EUC_JP ] && echo '59Yx' || echo 'KAkO')   # hashids.js 2.3.0, as in a UTF-8 database
    got=$(q -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION idcodec" \
            -c "SELECT hashids_encode(12345, '$salt') || ' ' || hashids_decode_one('$expected', '$salt')
                       || ' ' || sqids_encode(ARRAY[1, 2, 3])")
    if [ "$got" != "$expected 12345 86Rf07" ]; then
        echo "$encoding: got '$got', expected '$expected 12345 86Rf07'"; failures=$((failures + 1))
    fi
    # A message quoting user text reaches the client intact: converted from the core's UTF-8 to the database
    # encoding, then to the client's.
    got=$(q -d "$db" -c "SELECT * FROM cdc_chunks('\\x00', '$salt')" 2>&1 || true)
    if [[ "$got" != *"(got \"$salt\")"* ]]; then
        echo "$encoding: the error message lost the quoted algorithm: $got"; failures=$((failures + 1))
    fi
    repeated=$([ "$encoding" = EUC_JP ] && echo '日' || echo 'ä')
    got=$(q -d "$db" -c "SELECT base62_encode(1, 'x${repeated}y$repeated')" 2>&1 || true)
    if [[ "$got" != *"('$repeated' appears twice)"* ]]; then
        echo "$encoding: the error message lost the repeated character: $got"; failures=$((failures + 1))
    fi
    if [ "$encoding" = EUC_JP ]; then
        # 0xF5A1 is a user-defined EUC_JP character with no Unicode equivalent
        got=$(q -d "$db" -c "SELECT hashids_decode(c)::text || ' ' || coalesce(hashids_decode_one(c)::text, 'null') || ' '
                                    || sqids_decode(c)::text FROM convert_from('\xf5a1'::bytea, 'EUC_JP') AS c")
        [ "$got" = "{} null {}" ] || { echo "unmappable id: got '$got'"; failures=$((failures + 1)); }
    fi
    q -c "DROP DATABASE $db"
done
echo "encodings: $failures failures"
[ "$failures" -eq 0 ]
