#!/usr/bin/env bash
# Values near PostgreSQL's 1 GB limit, one check per family: the largest input each accepts gives the exact result,
# and one step past it gives a clear error (54000 or 22023, or 22P02 for a malformed value), never a crash or an
# out-of-memory kill. Expected sizes come from the definitions, checked against the reference libraries on small
# cases: with the smallest alphabets (so the fewest numbers, each with the cheapest reshuffle, reach the limit)
# hashids.js gives 20 characters per 2^63-1 with the alphabet a-p (20, 40, 60 for 1, 2, 3 of them), and sqids.js,
# with the alphabet abc and no blocklist, 54 per 2^53-1 (54, 108, 162). The core refuses an ID longer than
# 2^30 - 64 bytes; a bigint[] holds at most (2^30 - 1 - 24) / 8 elements. Each call is its own statement; the
# backend peaks near 3 GB.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
started=$(q -c "SELECT pg_postmaster_start_time()")

max_id=$(((1 << 30) - 64))   # the longest hashid or sqid the core writes
max_text=$(((1 << 30) - 1 - 4))  # MaxAllocSize less the varlena header: the largest text or bytea
last=$SECONDS
# timed NAME GOT EXPECTED: tap.sh's check, and its time as a diagnostic (GOT is computed just before: the time since
# the last test is its time)
timed() {
    check "$@"
    tap_diag "$((SECONDS - last)) s"
    last=$SECONDS
}
# outcome SQL: the statement's result, or "ERROR <sqlstate>" (a lost connection is a crash, and says so)
outcome() {
    local out status=0
    out=$(q -v VERBOSITY=sqlstate -c "$1" 2>&1) || status=$?
    case $status in
        0) echo "$out" ;;
        1 | 3) echo "ERROR $(grep -oE 'ERROR: +[0-9A-Z]{5}' <<<"$out" | grep -oE '[0-9A-Z]{5}$')" ;;
        *) echo "connection lost: $out" ;;
    esac
}

# ---- hashids and sqids: the longest ID of one number repeated, and one number more
# longest_id FAMILY BYTES_PER_NUMBER ENCODER (a printf format taking the count of numbers)
longest_id() {
    local n=$((max_id / $2))
    timed "$1: $n numbers give an ID of $(($2 * n)) bytes, the longest accepted" \
        "$(outcome "SELECT octet_length($(printf "$3" $n))")" "$(($2 * n))"
    timed "$1: one number more is refused (54000)" \
        "$(outcome "SELECT octet_length($(printf "$3" $((n + 1))))")" "ERROR 54000"
}
longest_id hashids 20 "hashids_encode(array_fill(9223372036854775807::bigint, ARRAY[%s]), '', 0, 'abcdefghijklmnop')"
longest_id sqids 54 "sqids_encode(array_fill(9007199254740991::bigint, ARRAY[%s]), 'abc', blocklist => '{}')"

# ---- compact identifiers: the largest text there is, as a URL and as a malformed identifier
# Seed 002's codes computed in SQL from PostgreSQL's own md5(): each 32-bit word of the digest gives 8 characters,
# the word mod 62 then shifted right by 4.
big="repeat('a', $max_text)"
timed "compact: shortcode_candidates over a text of $max_text bytes gives the codes of its MD5" \
    "$(outcome "SELECT shortcode_candidates($big) = (
                    SELECT array_agg((SELECT string_agg(substr('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
                                                               ((w >> (4 * j)) % 62)::int + 1, 1), '' ORDER BY j)
                                      FROM generate_series(0, 7) j) ORDER BY i)
                    FROM (SELECT i, ('x' || lpad(substr(md5($big), 8 * i + 1, 8), 16, '0'))::bit(64)::bigint AS w
                          FROM generate_series(0, 3) i) words)")" "t"
for decoder in objectid_decompress uuid_decompress base62_decode base62_unmixup; do
    timed "compact: $decoder gives NULL for it" "$(outcome "SELECT $decoder($big) IS NULL")" "t"
done
message=$(q -c "SELECT objectid_compress($big)" 2>&1 || true)
timed "compact: an encoder refuses it (22P02), quoting at most 64 bytes of it" \
    "$(outcome "SELECT objectid_compress($big)") $((${#message} < 200))" "ERROR 22P02 1"

# ---- chunking: the largest bytea there is, chunked whole (in memory: a table cannot store a value this large);
# the largest max_size, and one byte more
timed "chunking: cdc_chunks over a bytea of $max_text bytes covers it exactly, in chunks of at most 64 KiB" \
    "$(outcome "SELECT sum(c.length) || ' ' || bool_and(c.length <= 65536) || ' ' || (max(c.start + c.length) = $max_text)
                FROM cdc_chunks(pg_read_binary_file('/dev/urandom', 0, $max_text)) c")" "$max_text true true"
timed "chunking: the largest max_size (64 MiB, restic's Rabin chunker) is accepted" \
    "$(outcome "SELECT sum(c.length) || ' ' || bool_and(c.length <= 67108864)
                FROM cdc_chunks(pg_read_binary_file('/dev/urandom', 0, 100000000), 'rabin', 16777216, 33554432, 67108864) c")" \
    "100000000 true"
timed "chunking: one byte more is refused (22023)" \
    "$(outcome "SELECT count(*) FROM cdc_chunks('x'::bytea, 'rabin', 16777216, 33554432, 67108865)")" "ERROR 22023"

# ---- search: winnow's every k-gram selected (k = w = 1) fills one bigint[] exactly, and one character more
n=$((((1 << 30) - 1 - 24) / 8))
timed "search: winnow of $n characters gives $n fingerprints, the most one bigint[] holds" \
    "$(outcome "SELECT cardinality(f) || ' ' || f[1] || ' ' || f[$n] FROM (SELECT winnow(repeat('a', $n), 1, 1) AS f) s")" \
    "$n 97 97"
timed "search: one character more is refused (54000)" \
    "$(outcome "SELECT cardinality(winnow(repeat('a', $((n + 1))), 1, 1))")" "ERROR 54000"

check "the server did not restart" "$(q -c "SELECT pg_postmaster_start_time()")" "$started"
if [ -z "${SERVER_LOG:-}" ]; then
    tap_skip "the server's log: its caller did not name it (SERVER_LOG)"
elif grep -qE "terminated by signal|out of memory" "$SERVER_LOG"; then
    tap_not_ok "the server log shows no killed backend and no allocation failure" \
        "$(grep -E "terminated by signal|out of memory" "$SERVER_LOG" | tail -n 5)"
else
    tap_ok "the server log shows no killed backend and no allocation failure"
fi
tap_done
