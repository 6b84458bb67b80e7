#!/usr/bin/env bash
# Results do not depend on the database's locale. Every pg_regress suite runs again, unchanged, in a database whose
# LC_COLLATE and LC_CTYPE are Turkish (where 'I' lowercases to dotless 'ı'); a sweep of sqids over 300,000 numbers
# gives exactly what npm sqids 0.3.0 gives, in that database and in a C.UTF-8 one; and a query calling every family
# with case-sensitive inputs prints the same bytes in both.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
locale=${TEST_LOCALE:-tr_TR.UTF-8}
q() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

for db in idcodec_locale_c idcodec_locale_tr; do
    q -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db"
done
q -c "CREATE DATABASE idcodec_locale_c TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
q -c "CREATE DATABASE idcodec_locale_tr TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE '$locale' LC_CTYPE '$locale'"

# 1. The pg_regress suites, with their expected output, in the Turkish database.
pg_regress=$("$PG_BIN/pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress
suites=$(for f in sql/*.sql; do basename "$f" .sql; done)
q -d idcodec_locale_tr -c "CREATE EXTENSION idcodec"
# (results in a directory of this run's own: the same suite may be running on another major beside this one)
results=$(mktemp -d)
# (this replaces the EXIT trap of suite_cluster's throwaway cluster, so it stops that cluster too)
trap 'rm -rf "$results"
      for db in idcodec_locale_c idcodec_locale_tr; do q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
      if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
# One test per pg_regress file. pg_regress of PostgreSQL 16 and later reports in TAP ("ok 1 - name  12 ms"), 15 in
# lines "test name ... ok"; either is read here, never passed through.
status=0
"$pg_regress" --inputdir=. --bindir="$PG_BIN" --use-existing --dbname=idcodec_locale_tr \
    --outputdir="$results" $suites >"$results/output" 2>&1 || status=$?
ran=0
while IFS= read -r line; do
    tap_parse_line "$line"
    if [ "$TAP_KIND" = other ] && [[ $line =~ ^(test[[:space:]]+|[[:space:]]+)([A-Za-z0-9_]+)[[:space:]]+\.\.\.[[:space:]]+([A-Za-z]+) ]]; then
        TAP_TEXT=${BASH_REMATCH[2]}
        [ "${BASH_REMATCH[3]}" = ok ] && TAP_KIND=ok || TAP_KIND=not_ok
    fi
    case $TAP_KIND in ok | not_ok) ;; *) continue ;; esac
    # (the name, without a parallel group's "+" and the timing after it)
    name=${TAP_TEXT#+ }
    name=${name%% *}
    ran=$((ran + 1))
    if [ "$TAP_KIND" = ok ]; then
        tap_ok "pg_regress $name in a $locale database"
    else
        tap_not_ok "pg_regress $name in a $locale database" \
            "$(sed -n "/^diff .*\/$name\.out/,/^diff /p" "$results/regression.diffs" 2>/dev/null | head -n 60)"
    fi
done <"$results/output"
check "pg_regress ran every suite of sql/ in the $locale database and succeeded" \
    "$ran files, exit status $status" "$(wc -w <<<"$suites") files, exit status 0"

# 2. sqids sweeps: md5 of the IDs of 1..300000, joined by commas, as npm sqids 0.3.0 computes them; and every ID
#    decodes canonically to its number.
q -d idcodec_locale_c -c "CREATE EXTENSION idcodec"
while read -r alphabet expected; do
    sweep="SELECT md5(string_agg(id, ',' ORDER BY i)) || ' '
                  || count(*) FILTER (WHERE sqids_decode(id, '$alphabet', canonical => true) = ARRAY[i])
           FROM generate_series(1::bigint, 300000) i, sqids_encode(i, '$alphabet') id"
    for db in idcodec_locale_c idcodec_locale_tr; do
        check "$db: sqids of 1..300000 with alphabet $alphabet are npm sqids 0.3.0's, and all decode canonically" \
            "$(q -d "$db" -c "$sweep" 2>&1)" "$expected 300000"
    done
done <<'VECTORS'
abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 f2a8ea3c8ddfffdf93165a9e41c178c4
ABCDEFGHIJKLMNOPQRSTUVWXYZ be4b3921daa3dcd7de30349a75f815bc
ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 7f2a3b12acb6dbf94bb7db0e5ee2d79b
VECTORS

# 3. Every family with case-sensitive settings: the same bytes in both databases.
every_family=$(cat <<'SQL'
-- Only the functions under test may see the locale: no upper(), lower() or collation-dependent SQL here.
SELECT s, hashids_encode(n, s), hashids_encode(n, s, 10, 'IıİiIJKLMNOPQRSTUVWXYZ'), hashids_decode(hashids_encode(n, s), s),
       sqids_encode(n, 'IiJjKkABCDEFGHLMN'), sqids_encode(n * 1000003, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 0, ARRAY[s, 'sIs', 'SiS', 'DICK']),
       sqids_encode(ARRAY[n, 130208], 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 8, ARRAY['iiii', 'IIII', 'pIpI']),
       base62_encode(n, 'IiıİabcdefXYZ'), base62_mixup(n), alphabet_shuffle('IiıİŞşĞğÇçÖöÜü', s),
       objectid_compress(left(md5(s), 24)), uuid_compress(md5(s)::uuid), shortcode_candidates(s || 'I' || s),
       (SELECT array_agg(hash ORDER BY pos) FROM rolling_hash(convert_to(s, 'UTF8'), 2, 'rabin')),
       (SELECT array_agg(p) FROM rabin_karp_find(s || 'İI' || s, 'I') p), winnow(s || 'IİıiIİıi' || s, 2, 2),
       (SELECT array_agg(length ORDER BY start) FROM cdc_chunks(convert_to(repeat(s, 4000), 'UTF8'), 'fastcdc', 64, 256, 1024))
FROM unnest(ARRAY['Iıİi', 'ISTANBUL istanbul', 'dIcKw', 'TITLE title Title', 'ﬃ ß ǅ']) WITH ORDINALITY AS t(s, n)
SQL
)
c_status=0 tr_status=0
c_out=$(q -d idcodec_locale_c -c "$every_family" 2>&1) || c_status=$?
tr_out=$(q -d idcodec_locale_tr -c "$every_family" 2>&1) || tr_status=$?
if [ "$c_out" = "$tr_out" ] && [ $c_status = 0 ] && [ $tr_status = 0 ]; then
    tap_ok "every family with case-sensitive inputs prints the same bytes in C.UTF-8 and $locale"
else
    tap_not_ok "every family with case-sensitive inputs prints the same bytes in C.UTF-8 and $locale" \
        "$(echo "exit status $c_status and $tr_status; the outputs' difference:"
           diff <(echo "$c_out") <(echo "$tr_out") | head -n 20)"
fi

tap_done
