-- The times of time-ordered IDs at their extremes (1.5.1). Each expected value is computed in the query by
-- PostgreSQL's own functions (to_timestamp, extract, date_trunc, date and timestamp arithmetic) or is arithmetic
-- written beside it; a time outside what an ID holds is error 22008, shown with its message.
SET timezone = 'UTC';
\i test/regress/error_of.sql

-- version 7 and ULID: 48 bits of milliseconds since 1970, so 0 is 1970-01-01 and 2^48 - 1 = 281,474,976,710,655 ms
-- is 10889-08-02 05:31:50.655 UTC (the ULID 7ZZZZZZZZZZZZZZZZZZZZZZZZZ is the greatest, its first 48 bits all 1)
SELECT uuid_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff') AS v7_last, ulid_timestamp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS ulid_last;
SELECT uuid_timestamp('00000000-0000-7000-8000-000000000000') = to_timestamp(0) AS v7_first,
       extract(epoch FROM uuid_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff')) * 1000 = 2::numeric ^ 48 - 1 AS v7_last,
       ulid_timestamp('00000000000000000000000000') = to_timestamp(0) AS ulid_first,
       extract(epoch FROM ulid_timestamp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) * 1000 = 2::numeric ^ 48 - 1 AS ulid_last,
       extract(epoch FROM ulid_timestamp('7zzzzzzzzzzzzzzzzzzzzzzzzz'::ulid)) * 1000 = 2::numeric ^ 48 - 1 AS ulid_type_last,
       extract(epoch FROM '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::timestamptz) * 1000 = 2::numeric ^ 48 - 1 AS cast_last,
       ulid_timestamp('8ZZZZZZZZZZZZZZZZZZZZZZZZZ') IS NULL AS beyond_128_bits_null;

-- version 1: 60 bits of 100 ns ticks since 1582-10-15, rounded down to the microsecond (as PostgreSQL's
-- uuid_extract_timestamp). 1970-01-01 is 141,427 days later, 141427 * 86400 * 10^7 = 122,192,928,000,000,000 ticks
-- = 0x1b21dd213814000: time_hi 1b2, time_mid 1dd2, time_low 13814000. Ticks 0x13 = 19 are 1.9 microseconds.
SELECT date '1970-01-01' - date '1582-10-15' AS days, to_hex(141427::bigint * 86400 * 10000000) AS ticks_at_1970;
SELECT uuid_timestamp('00000000-0000-1000-8000-000000000000') = timestamptz '1582-10-15 00:00 UTC' AS gregorian_epoch,
       uuid_timestamp('00000009-0000-1000-8000-000000000000') = timestamptz '1582-10-15 00:00 UTC' AS nine_ticks_down,
       uuid_timestamp('00000013-0000-1000-8000-000000000000') = timestamptz '1582-10-15 00:00:00.000001 UTC' AS nineteen_ticks,
       uuid_timestamp('13814000-1dd2-11b2-8000-000000000000') = to_timestamp(0) AS at_1970,
       uuid_timestamp('13813fff-1dd2-11b2-8000-000000000000') = to_timestamp(0) - interval '1 microsecond' AS tick_before_1970,
       uuid_timestamp('1381400a-1dd2-11b2-8000-000000000000') = to_timestamp(0) + interval '1 microsecond' AS ten_ticks_after;
-- the last tick, 2^60 - 1: (2^60 - 1) div 10 = 115,292,150,460,684,697 microseconds after 1582-10-15
SELECT uuid_timestamp('ffffffff-ffff-1fff-bfff-ffffffffffff') AS v1_last,
       extract(epoch FROM uuid_timestamp('ffffffff-ffff-1fff-bfff-ffffffffffff'))
       = div(2::numeric ^ 60 - 1, 10) / 1000000 - (date '1970-01-01' - date '1582-10-15') * 86400::numeric AS v1_last_right;

-- the least and greatest IDs of a time's millisecond: from 1970-01-01 00:00:00 to the last microsecond of the last
-- millisecond, 10889-08-02 05:31:50.655999 UTC
SELECT uuid_v7_least('1970-01-01 00:00:00 UTC') AS v7_least, uuid_v7_greatest('1970-01-01 00:00:00.000999 UTC') AS v7_greatest,
       ulid_least('1970-01-01 00:00:00 UTC') AS ulid_least, ulid_greatest('1970-01-01 00:00:00.000999 UTC') AS ulid_greatest,
       '1970-01-01 00:00:00.000999 UTC'::timestamptz::ulid AS cast_to_ulid;
SELECT uuid_v7_least('10889-08-02 05:31:50.655 UTC') AS v7_least, uuid_v7_greatest('10889-08-02 05:31:50.655999 UTC') AS v7_greatest,
       ulid_least('10889-08-02 05:31:50.655 UTC') AS ulid_least, ulid_greatest('10889-08-02 05:31:50.655999 UTC') AS ulid_greatest,
       '10889-08-02 05:31:50.655999 UTC'::timestamptz::ulid AS cast_to_ulid;
-- a microsecond outside, infinity, and PostgreSQL's own first and last times (4714-11-24 BC, 294276-12-31)
SELECT f AS function, t AS at, pg_temp.error_of(format('SELECT %s(%L::timestamptz)', f, t)) AS error
FROM unnest(ARRAY['uuid_v7_least', 'uuid_v7_greatest', 'ulid_least', 'ulid_greatest']) WITH ORDINALITY AS fs(f, i),
     unnest(ARRAY['1969-12-31 23:59:59.999999 UTC', '10889-08-02 05:31:50.656 UTC', 'infinity', '-infinity',
                  '4714-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999 UTC']) WITH ORDINALITY AS ts(t, j)
ORDER BY i, j;
SELECT pg_temp.error_of($$SELECT '1969-12-31 23:59:59.999999 UTC'::timestamptz::ulid$$) AS cast_before_1970,
       pg_temp.error_of($$SELECT 'infinity'::timestamptz::ulid$$) AS cast_infinity;
-- times are rounded down to their millisecond (date_trunc's), also at both ends; the ID's first 12 hex digits are
-- that millisecond since 1970 (extract's)
SELECT count(*) AS times,
       count(*) FILTER (WHERE uuid_timestamp(uuid_v7_least(t)) = date_trunc('milliseconds', t)
                          AND uuid_timestamp(uuid_v7_greatest(t)) = date_trunc('milliseconds', t)
                          AND ulid_least(t)::timestamptz = date_trunc('milliseconds', t)
                          AND ulid_greatest(t)::timestamptz = date_trunc('milliseconds', t)
                          AND t::ulid = ulid_least(t)) AS truncated,
       count(*) FILTER (WHERE replace(uuid_v7_least(t)::text, '-', '') LIKE lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') || '7000%'
                          AND replace(ulid_greatest(t)::uuid::text, '-', '') LIKE lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') || 'ffff%') AS digits
FROM (SELECT generate_series(timestamptz '1970-01-01 00:00:00.000999 UTC', '10889-08-02 05:31:50.655999 UTC',
                             '97 years 1 mon 13 days 01:02:03.456789') AS t
      UNION ALL VALUES ('1970-01-01 00:00:00 UTC'::timestamptz), ('10889-08-02 05:31:50.655999 UTC'), ('2262-04-11 23:47:16.854776 UTC')) s;

-- ObjectId: 32 bits of seconds since 1970, unsigned as MongoDB reads them, so 0x80000000 is 2038, not 1901, and
-- 0xffffffff = 4,294,967,295 s is 2106-02-07 06:28:15 UTC, the last
SELECT objectid_timestamp('ffffffffffffffffffffffff') AS objectid_last;
SELECT objectid_timestamp('000000000000000000000000') = to_timestamp(0) AS first,
       objectid_timestamp('7fffffff0000000000000000') = to_timestamp(2147483647) AS last_signed_second,
       objectid_timestamp('800000000000000000000000') = to_timestamp(2147483648) AS next_second,
       objectid_timestamp('FFFFFFFF0000000000000000') = to_timestamp(4294967295) AS last;

-- uuid_generate_v7(shift) is PostgreSQL 18's uuidv7(shift): the clock's microsecond moved by the interval, its
-- millisecond the UUID's. Until 1.5.1 it went through nanoseconds since 1970, which pass 2^63 at 2262-04-11
-- 23:47:16.854775807 UTC: '300 years' gave the year 10661, '8862 years' the year 2120.
SELECT extract(year FROM uuid_timestamp(uuid_generate_v7('300 years'))) = extract(year FROM clock_timestamp() + interval '300 years') AS same_year,
       abs(extract(epoch FROM uuid_timestamp(uuid_generate_v7('300 years')) - (clock_timestamp() + interval '300 years'))) < 5 AS now_300_years_on;
-- 178 shifts by whole years from now up to the year 10888, back to the year 1970, and around 2^63 ns (2262-04-11
-- 23:47:16.854775 UTC, to_timestamp's); the years counted from the clock's, so that every shift stays inside the range
SELECT count(*) AS shifts,
       count(*) FILTER (WHERE abs(extract(epoch FROM uuid_timestamp(u) - (c + s))) < 5 AND uuid_version(u) = 7) AS as_shifted
FROM (SELECT s, clock_timestamp() AS c, uuid_generate_v7(s) AS u
      FROM (SELECT make_interval(years => (10888 - extract(year FROM clock_timestamp())::int) * k / 177)
            FROM generate_series(0, 177) k
            UNION ALL VALUES (make_interval(years => 1970 - extract(year FROM clock_timestamp())::int)),
                             (to_timestamp(9223372036) + interval '0.854775 s' - clock_timestamp() - interval '1 minute'),
                             (to_timestamp(9223372036) + interval '0.854775 s' - clock_timestamp() + interval '1 minute')) v(s)) g;
-- the bounds: a second inside each is a time of that second; a second outside, a year outside and beyond
-- PostgreSQL's own range are errors (the last from timestamptz arithmetic, as uuidv7's)
SELECT uuid_timestamp(uuid_generate_v7(timestamptz '1970-01-01 00:00:00 UTC' - clock_timestamp() + interval '1 second'))
       BETWEEN timestamptz '1970-01-01 00:00:01 UTC' AND timestamptz '1970-01-01 00:00:02 UTC' AS second_after_1970,
       uuid_timestamp(uuid_generate_v7(timestamptz '10889-08-02 05:31:50.655 UTC' - clock_timestamp() - interval '1 second'))
       BETWEEN timestamptz '10889-08-02 05:31:49.655 UTC' AND timestamptz '10889-08-02 05:31:50.655 UTC' AS second_before_the_last;
SELECT pg_temp.error_of($$SELECT uuid_generate_v7(timestamptz '1970-01-01 00:00:00 UTC' - clock_timestamp() - interval '1 second')$$) AS second_before_1970,
       pg_temp.error_of($$SELECT uuid_generate_v7(timestamptz '10889-08-02 05:31:50.655 UTC' - clock_timestamp() + interval '1 second')$$) AS second_after_the_last;
SELECT s AS shift, pg_temp.error_of(format('SELECT uuid_generate_v7(%s)', s)) AS error
FROM unnest(ARRAY[$$timestamptz '1969-01-01 00:00:00 UTC' - clock_timestamp()$$,
                  $$timestamptz '10890-08-02 00:00:00 UTC' - clock_timestamp()$$,
                  $$'300000 years'$$, $$'-300000 years'$$]) WITH ORDINALITY AS v(s, i) ORDER BY i;
