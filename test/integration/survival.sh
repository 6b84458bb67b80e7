#!/usr/bin/env bash
# The server survives random bad and hostile arguments: every call either answers or raises a clean SQL error
# (one call per statement), and long work stops at statement_timeout. The systematic battery is hostile.sh; memory
# bounds are memory.sh.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

psql_q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
started=$(psql_q -c "SELECT pg_postmaster_start_time()")

# 1. Thousands of random calls with random, mostly invalid arguments: only SQL errors, never a crash. The session
#    prints how many calls it made and which SQLSTATEs nobody documented; a session that dies prints neither.
status=0
out=$(psql_q 2>&1 <<'SQL'
CREATE TEMP TABLE outcome (sqlstate text);
DO $$
DECLARE
    alphabets text[] := ARRAY['', 'abc', 'abcdefghijklmnop', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'cfhistuCFHISTUab',
                              'cfhistuCFHISTUabc', ' !"#$%&''()*+,-./0123456789:;<=>?@', '日本語のアルファベットです十六文字以上あります',
                              '😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗', repeat('ab', 50000), 'abcdefghijklmnopqrstuvwxyz'];
    salts text[] := ARRAY['', 'x', 'this is my salt', '日本語', '😀', repeat('salt', 10000), E'\t\n'];
    lengths int[] := ARRAY[0, 1, 8, 100, 4096, -1, -2147483648, 2147483647, 1000000, 1000001];
    numbers bigint[] := ARRAY[0, 1, 9223372036854775807, -1, -9223372036854775808, 4294967296, 61, 62];
    ids text[] := ARRAY['', 'a', 'yr8', 'nOSQY', '💩💩💩', repeat('x', 100000), 'p21ZD04m8GQ42p21ZD04m8GQ42', E'\\', '%s%n',
                        '86Rf07', 'AqkYhRmbHpEXAqkYhRmbHpEX'];
    a text; s text; l int; n bigint; state text;
BEGIN
    PERFORM setseed(0.42);
    FOR i IN 1..8100 LOOP
        a := alphabets[1 + floor(random() * array_length(alphabets, 1))::int];
        s := salts[1 + floor(random() * array_length(salts, 1))::int];
        l := lengths[1 + floor(random() * array_length(lengths, 1))::int];
        n := numbers[1 + floor(random() * array_length(numbers, 1))::int];
        state := '00000';
        BEGIN
            -- one idcodec call per statement, so an error in one cannot hide another
            CASE i % 27
                WHEN 0 THEN PERFORM hashids_encode(n, s, l, a);
                WHEN 1 THEN PERFORM hashids_encode(ARRAY[n, n, 7, NULL], s, l, a);
                WHEN 2 THEN PERFORM hashids_encode(ARRAY[[n], [n]], s, l, a);
                WHEN 3 THEN PERFORM hashids_decode(ids[1 + floor(random() * array_length(ids, 1))::int], s, l, a);
                WHEN 4 THEN PERFORM hashids_decode_one(hashids_encode(abs(n % 1000), s, least(abs(l), 50), a), s, l, a);
                WHEN 5 THEN PERFORM hashids_encode_hex(md5(i::text) || ids[1 + i % 9], s, l, a);
                WHEN 6 THEN PERFORM hashids_decode_hex(ids[1 + floor(random() * array_length(ids, 1))::int], s, l, a);
                WHEN 7 THEN PERFORM sqids_encode(ARRAY[n, n, 3], a, l, CASE WHEN i % 3 = 0 THEN NULL ELSE ARRAY[s, ids[1 + i % 9], NULL] END);
                WHEN 8 THEN PERFORM sqids_encode(abs(n % 100000), left(a, 60), l % 300, string_to_array(s, ' '));
                WHEN 9 THEN PERFORM sqids_decode(ids[1 + floor(random() * array_length(ids, 1))::int], a, l, ARRAY[s], i % 2 = 0);
                WHEN 10 THEN PERFORM objectid_decompress(ids[1 + i % 11], a);
                WHEN 11 THEN PERFORM uuid_decompress(ids[1 + i % 11], a);
                WHEN 12 THEN PERFORM objectid_compress(left(md5(s), 24 + i % 3), a);
                WHEN 13 THEN PERFORM base62_encode(n, a);
                WHEN 14 THEN PERFORM base62_mixup(n, a);
                WHEN 15 THEN PERFORM base62_decode(ids[1 + i % 11], a);
                WHEN 16 THEN PERFORM base62_unmixup(ids[1 + i % 11], a);
                WHEN 17 THEN PERFORM shortcode_candidates(s, l % 12, l % 5, a);
                WHEN 18 THEN PERFORM alphabet_shuffle(a, s);
                WHEN 19 THEN PERFORM objectid_timestamp(ids[1 + i % 11]);
                WHEN 20 THEN PERFORM uuid_compress(md5(s)::uuid, a);
                WHEN 21 THEN PERFORM count(*) FROM cdc_chunks(convert_to(repeat(s, 1 + i % 50), 'UTF8'),
                    (ARRAY['fastcdc', 'fastcdc2016', 'ronomon', 'rabin', 'buzhash', 'moving_sum', 'x', ''])[1 + i % 8],
                    l % 70000, abs(l) % 140000, l, n, CASE WHEN i % 3 = 0 THEN NULL ELSE l % 5000 END,
                    CASE WHEN i % 5 = 0 THEN 'sha256' WHEN i % 7 = 0 THEN 'md5' END);
                WHEN 22 THEN PERFORM count(*) FROM rolling_hash(convert_to(left(s, 300), 'UTF8'), l % 70,
                    (ARRAY['rabin_karp', 'rabin', 'buzhash', 'gear', 'moving_sum', 'x'])[1 + i % 6], n % 3);
                WHEN 23 THEN PERFORM count(*) FROM rolling_hash(left(s, 300), l % 70,
                    (ARRAY['rabin_karp', 'rabin', 'buzhash', 'gear', 'moving_sum', 'x'])[1 + i % 6], n % 3);
                WHEN 24 THEN PERFORM count(*) FROM rabin_karp_find(s, ids[1 + i % 11]);
                WHEN 25 THEN PERFORM count(*) FROM rabin_karp_find(s, ARRAY[ids[1 + i % 11], a, NULL]);
                ELSE PERFORM winnow(s, l % 9, (l % 7) + i % 2);
            END CASE;
        EXCEPTION WHEN OTHERS THEN
            state := SQLSTATE;
        END;
        INSERT INTO outcome VALUES (state);
    END LOOP;
END $$;
SELECT 'calls: ' || count(*) FROM outcome;
SELECT 'outcomes: ' || string_agg(sqlstate || '=' || n, ' ' ORDER BY sqlstate)
FROM (SELECT sqlstate, count(*) AS n FROM outcome GROUP BY 1) AS t;
-- only the documented SQLSTATEs
SELECT 'unexpected SQLSTATEs: ' || coalesce(string_agg(DISTINCT sqlstate, ','), 'none')
FROM outcome WHERE sqlstate NOT IN ('00000', '22023', '22003', '22004', '22P02', '54000');
SQL
) || status=$?
tap_diag "$(grep '^outcomes: ' <<<"$out" || true)"
check "8100 random calls with mostly invalid arguments each answered or raised an SQL error (the session survived)" \
    "$(grep '^calls: ' <<<"$out" || echo "no count; psql's exit status $status: $(tail -n 5 <<<"$out")")" "calls: 8100"
check "the random calls raised only documented SQLSTATEs (00000 22023 22003 22004 22P02 54000)" \
    "$(grep '^unexpected SQLSTATEs: ' <<<"$out" || echo "no answer")" "unexpected SQLSTATEs: none"

# 2. Long work over a big array stops at statement_timeout (the core polls for cancellation). The block keeps what
#    happened in a setting of the session: "canceled after ELAPSED", or "finished" when it ended before the timeout.
status=0
out=$(psql_q 2>&1 <<'SQL'
CREATE TEMP TABLE big AS SELECT ARRAY(SELECT generate_series(1::bigint, 3000000)) AS numbers;
SET statement_timeout = '300ms';
DO $$
DECLARE t0 timestamptz := clock_timestamp(); elapsed interval;
BEGIN
    BEGIN
        PERFORM hashids_encode(numbers) FROM big;
        PERFORM set_config('survival.cancel', 'finished', false);
    EXCEPTION WHEN query_canceled THEN
        elapsed := clock_timestamp() - t0;
        PERFORM set_config('survival.cancel', 'canceled after ' || elapsed, false);
        PERFORM set_config('survival.cancel_within', (elapsed <= interval '1.5 s')::text, false);
    END;
END $$;
RESET statement_timeout;
SELECT 'cancel: ' || coalesce(current_setting('survival.cancel', true), 'unknown');
SELECT 'within 1.5 s: ' || coalesce(current_setting('survival.cancel_within', true), 'unknown');
SQL
) || status=$?
cancel=$(grep '^cancel: ' <<<"$out" || echo "no answer; psql's exit status $status: $(tail -n 5 <<<"$out")")
if [[ $cancel == "cancel: canceled after "* ]]; then
    tap_ok "encoding 3M numbers outlasts statement_timeout (300 ms) and is canceled: the timeout is tested"
    tap_diag "${cancel#cancel: }"
    check "the canceled encoding ended within 1.5 s of its start (statement_timeout 300 ms)" \
        "$(grep '^within 1.5 s: ' <<<"$out" || true)" "within 1.5 s: true"
else
    tap_not_ok "encoding 3M numbers outlasts statement_timeout (300 ms) and is canceled: the timeout is tested" "$cancel"
    tap_skip "the canceled encoding ended within 1.5 s of its start: the timeout was not tested"
fi

# 3. Still the same postmaster: no backend crashed (a crash restarts every backend and is logged).
check "the server did not restart during the battery" "$(psql_q -c "SELECT pg_postmaster_start_time()")" "$started"
if [ -z "${SERVER_LOG:-}" ]; then
    tap_skip "no backend was terminated by a signal: the server's log is unknown (SERVER_LOG unset)"
elif grep -q "terminated by signal" "$SERVER_LOG"; then
    tap_not_ok "no backend was terminated by a signal (the server's log)" "$(grep "terminated by signal" "$SERVER_LOG")"
else
    tap_ok "no backend was terminated by a signal (the server's log)"
fi
tap_done
