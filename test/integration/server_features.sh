#!/usr/bin/env bash
# What differs between PostgreSQL majors, as the README documents it. On every major: a STORED generated column
# computed by idcodec, with a unique index that lookups use. On PostgreSQL 18 and later: a generated column is
# virtual unless it says STORED, and the server refuses a virtual one that calls an extension's function (0A000),
# so idcodec's columns must say STORED; the module declares its name and version, which pg_get_loaded_modules()
# shows; uuid_compress() takes the server's own uuidv7() and gives it back. The times and versions of UUIDs equal
# PostgreSQL's own functions where the major has them (17: uuid_extract_version, uuid_extract_timestamp of
# version 1; 18: also of version 7, and uuidv7(shift)).
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control)
db=idcodec_server_features
q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
d() { q -d "$db" "$@"; }
d -c "CREATE EXTENSION idcodec"
major=$(d -c "SHOW server_version_num")
major=$((major / 10000))

# hashids.js 2.3.0: 42 with 'customer salt' and min_length 8 is O2JqGW9Y
check "a STORED generated column, looked up by its unique index" "$(d <<'SQL'
CREATE TABLE customer (
    id bigint PRIMARY KEY,
    public_id text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)) STORED UNIQUE
);
INSERT INTO customer SELECT generate_series(1, 10000);
ANALYZE customer;
SELECT id FROM customer WHERE public_id = 'O2JqGW9Y';
EXPLAIN (COSTS OFF) SELECT id FROM customer WHERE public_id = 'O2JqGW9Y';
SQL
)" "42
Index Scan using customer_public_id_key on customer
  Index Cond: (public_id = 'O2JqGW9Y'::text)"

if [ "$major" -ge 18 ]; then
    refused=$(d -v VERBOSITY=sqlstate -c "CREATE TABLE virtual_id (id bigint,
        public_id text GENERATED ALWAYS AS (hashids_encode(id, 'customer salt', 8)))" 2>&1 || true)
    check "PostgreSQL $major refuses a virtual generated column calling idcodec" "$refused" "ERROR:  0A000"
    check "pg_get_loaded_modules() shows idcodec and its version" \
        "$(d -c "SELECT hashids_encode(1) IS NOT NULL" \
             -c "SELECT module_name || ' ' || version || ' ' || (file_name ~ '^idcodec') FROM pg_get_loaded_modules()
                 WHERE module_name = 'idcodec'")" "t
idcodec $current true"
    check "uuid_compress(uuidv7()): 22 characters, decompressed to the same version-7 uuid" \
        "$(d -c "SELECT count(*) FILTER (WHERE length(c) = 22 AND uuid_decompress(c) = u
                                          AND uuid_extract_version(u) = 7)
                 FROM (SELECT u, uuid_compress(u) AS c FROM (SELECT uuidv7() AS u FROM generate_series(1, 1000))) g")" \
        "1000"
else
    tap_diag "nothing to check: PostgreSQL $major has stored generated columns only (virtual ones, module versions and uuidv7() come with 18)"
fi

# The times and versions of UUIDs: idcodec's functions give PostgreSQL's own results where it has the function
# (uuid_extract_version and, for version 1, uuid_extract_timestamp from 17; for version 7 too from 18).
uuids="SELECT u FROM (VALUES ('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid), ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
           ('00000000-0000-1000-8000-000000000000'), ('01890a5d-ac96-774b-bcce-b302099a8057'),
           ('01890a5d-ac96-774b-7cce-b302099a8057'), ('01890a5d-ac96-774b-ccce-b302099a8057'),
           ('00000000-0000-0000-0000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
           ('13814000-1dd2-11b2-8000-000000000000'), ('13813fff-1dd2-11b2-8000-000000000000'),
           ('00000009-0000-1000-8000-000000000000'), ('00000000-0000-7000-8000-000000000000'),
           ('ffffffff-ffff-7fff-bfff-ffffffffffff')) AS v(u)
       UNION ALL SELECT gen_random_uuid() FROM generate_series(1, 1000)
       UNION ALL SELECT uuid_generate_v7() FROM generate_series(1, 1000)
       UNION ALL SELECT uuid_v7_greatest(now()) UNION ALL SELECT ulid_least(now())::uuid
       UNION ALL SELECT uuid_v7_least('1970-01-01 00:00:00+00') UNION ALL SELECT uuid_v7_greatest('10889-08-02 05:31:50.655999+00')
       UNION ALL SELECT md5(i::text)::uuid FROM generate_series(1, 1000) i"
if [ "$major" -ge 16 ]; then
    check "the types' text input gives soft errors (pg_input_is_valid, pg_input_error_info)" \
        "$(d -c "SELECT pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid') || ' ' || pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'ulid')
                        || ' ' || pg_input_is_valid('user_01h455vb4pex5vsknk084sn02q', 'typeid')
                        || ' ' || pg_input_is_valid('User_01h455vb4pex5vsknk084sn02q', 'typeid')" \
             -c "SELECT message || ' ' || sql_error_code FROM pg_input_error_info('x', 'typeid')")" \
        "true false true false
invalid input syntax for type typeid: \"x\" 22P02"
else
    tap_diag "nothing to check: PostgreSQL $major has no soft input errors (pg_input_is_valid, pg_input_error_info come with 16)"
fi
if [ "$major" -ge 17 ]; then
    check "uuid_version = uuid_extract_version on 3,017 UUIDs of every variant and version" \
        "$(d -c "SELECT count(*) FILTER (WHERE uuid_version(u) IS NOT DISTINCT FROM uuid_extract_version(u)) FROM ($uuids) s")" "3017"
    # on 17, uuid_extract_timestamp gives NULL for version 7, where uuid_timestamp gives its time (as 18 does)
    version_7=$([ "$major" -ge 18 ] && echo "uuid_timestamp(u) = uuid_extract_timestamp(u)" ||
                echo "uuid_extract_timestamp(u) IS NULL AND uuid_timestamp(u) IS NOT NULL")
    check "uuid_timestamp = uuid_extract_timestamp (17: but for version 7, which it has no time of)" \
        "$(d -c "SELECT count(*) FILTER (WHERE CASE WHEN uuid_version(u) = 7 THEN $version_7
                                                ELSE uuid_timestamp(u) IS NOT DISTINCT FROM uuid_extract_timestamp(u) END)
                 FROM ($uuids) s")" "3017"
else
    tap_diag "nothing to check: PostgreSQL $major has no uuid_extract_timestamp or uuid_extract_version (idcodec's uuid_timestamp and uuid_version stand in)"
fi
if [ "$major" -ge 18 ]; then
    # shifted(s): both generators called between two readings of the clock, so however long the machine stalls
    # between the calls, each time must lie in [start + s truncated to the millisecond, end + s], moved by
    # PostgreSQL's own calendar (the session's time zone, months and days as timestamptz + interval does)
    shifted="CREATE FUNCTION pg_temp.shifted(s interval) RETURNS boolean LANGUAGE plpgsql AS \$\$
        DECLARE
            start timestamptz := clock_timestamp();
            ours uuid := uuid_generate_v7(s);
            theirs uuid := uuidv7(s);
            finish timestamptz := clock_timestamp();
        BEGIN
            RETURN uuid_version(ours) = 7
               AND uuid_timestamp(ours) BETWEEN date_trunc('milliseconds', start + s) AND finish + s
               AND uuid_extract_timestamp(theirs) BETWEEN date_trunc('milliseconds', start + s) AND finish + s;
        END \$\$"
    # also across a daylight saving change
    check "uuid_generate_v7(shift) = uuidv7(shift), months and days by the session's calendar" \
        "$(d -c "SET timezone = 'Europe/Berlin'" -c "$shifted" -c "SELECT count(*) FILTER (WHERE pg_temp.shifted(s))
                 FROM unnest(ARRAY['0', '-1 day', '1 mon', '-6 mons 3 days', '100 years', '-50 years 3 hours',
                                   '-1 microsecond']::interval[]) s")" "7"
    # the whole range: past 2262-04-11 (2^63 ns since 1970), whole years to 10888 and back to 1970 (counted from the
    # clock's year), and up to a second inside each bound
    check "uuid_generate_v7(shift) = uuidv7(shift) from 1970 to 10889" \
        "$(d -c "SET timezone = 'UTC'" -c "$shifted" -c "SELECT count(*) FILTER (WHERE pg_temp.shifted(s))
                 FROM unnest(ARRAY['300 years', make_interval(years => 10888 - extract(year FROM clock_timestamp())::int),
                                   make_interval(years => 1970 - extract(year FROM clock_timestamp())::int),
                                   to_timestamp(9223372036) - clock_timestamp() + interval '1 second',
                                   timestamptz '1970-01-01 00:00:00+00' - clock_timestamp() + interval '1 second',
                                   timestamptz '10889-08-02 05:31:50.655+00' - clock_timestamp() - interval '1 second']) s")" "6"
    for shift in "timestamptz '1969-01-01 00:00:00+00' - clock_timestamp()" \
                 "timestamptz '10890-08-02 00:00:00+00' - clock_timestamp()" \
                 "'300000 years'" "'-300000 years'" "'infinity'" "'-infinity'" \
                 "timestamptz '1970-01-01 00:00:00+00' - clock_timestamp() - interval '1 second'" \
                 "timestamptz '10889-08-02 05:31:50.655+00' - clock_timestamp() + interval '1 second'"; do
        ours=$(d -v VERBOSITY=sqlstate -c "SELECT uuid_generate_v7($shift)" 2>&1 || true)
        theirs=$(d -v VERBOSITY=sqlstate -c "SELECT uuidv7($shift)" 2>&1 || true)
        check "uuid_generate_v7($shift) fails as uuidv7 does" "$ours" "$theirs"
    done
elif [ "$major" -ge 17 ]; then
    for shift in "infinity" "-infinity"; do
        check "uuid_generate_v7('$shift') fails with 22008" \
            "$(d -v VERBOSITY=sqlstate -c "SELECT uuid_generate_v7('$shift')" 2>&1 || true)" "ERROR:  22008"
    done
fi

tap_diag "server features of PostgreSQL $major"
tap_done
