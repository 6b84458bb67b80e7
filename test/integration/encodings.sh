#!/usr/bin/env bash
# In databases whose encoding is not UTF-8, text is handled by Unicode code point exactly as in a UTF-8 database,
# and an ID with a character UTF-8 cannot represent is simply not an ID.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
export PGCLIENTENCODING=UTF8
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'for db in idcodec_euc_jp idcodec_latin1; do q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
for encoding in EUC_JP LATIN1; do
    db="idcodec_${encoding,,}"
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db TEMPLATE template0 ENCODING '$encoding' LC_COLLATE 'C' LC_CTYPE 'C'"
    salt=$([ "$encoding" = EUC_JP ] && echo '日本語' || echo 'sälz')
    expected=$([ "$encoding" = EUC_JP ] && echo '59Yx' || echo 'KAkO')   # hashids.js 2.3.0, as in a UTF-8 database
    check "$encoding: hashids and sqids encode and decode as in a UTF-8 database (hashids.js 2.3.0, sqids)" \
        "$(q -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION idcodec" \
            -c "SELECT hashids_encode(12345, '$salt') || ' ' || hashids_decode_one('$expected', '$salt')
                       || ' ' || sqids_encode(ARRAY[1, 2, 3])" 2>&1)" \
        "$expected 12345 86Rf07"
    # A message quoting user text reaches the client intact: converted from the core's UTF-8 to the database
    # encoding, then to the client's.
    got=$(q -d "$db" -c "SELECT * FROM cdc_chunks('\\x00', '$salt')" 2>&1 || true)
    if [[ "$got" == *"(got \"$salt\")"* ]]; then
        tap_ok "$encoding: an error message quotes the unknown algorithm intact"
    else
        tap_not_ok "$encoding: an error message quotes the unknown algorithm intact" "got: $got"
    fi
    repeated=$([ "$encoding" = EUC_JP ] && echo '日' || echo 'ä')
    got=$(q -d "$db" -c "SELECT base62_encode(1, 'x${repeated}y$repeated')" 2>&1 || true)
    if [[ "$got" == *"('$repeated' appears twice)"* ]]; then
        tap_ok "$encoding: an error message quotes the repeated character intact"
    else
        tap_not_ok "$encoding: an error message quotes the repeated character intact" "got: $got"
    fi
    if [ "$encoding" = EUC_JP ]; then
        # 0xF5A1 is a user-defined EUC_JP character with no Unicode equivalent
        check "EUC_JP: an ID of a character without a Unicode equivalent decodes to nothing" \
            "$(q -d "$db" -c "SELECT hashids_decode(c)::text || ' ' || coalesce(hashids_decode_one(c)::text, 'null') || ' '
                                    || sqids_decode(c)::text FROM convert_from('\xf5a1'::bytea, 'EUC_JP') AS c" 2>&1)" \
            "{} null {}"
    fi
    q -c "DROP DATABASE $db"
done
tap_done
