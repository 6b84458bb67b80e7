#!/usr/bin/env bash
# The boundary between the core and the shim, checked at build level (`make check-boundary`):
#  1. a core header included after a PostgreSQL header fails to compile, and so does a PostgreSQL header in code
#     compiled as core, while the permitted order compiles;
#  2. no core file includes a shim or PostgreSQL header, and a family's files (and its unit tests) include only
#     their own folder and common/ (no family reaches into another's);
#  3. every C function the install scripts name is defined through IDCODEC_SQL_FUNCTION, and no entry point is
#     written any other way. The earlier releases' complete install scripts (test/releases/) count: a database not
#     yet updated calls the functions they made, with the new library.
# Prints one line per failure; exits 1 if there was any.
set -uo pipefail
cd "$(dirname "$0")/../.."
PG_CONFIG=${PG_CONFIG:-pg_config}
compile=(${CXX:-g++} -std=c++20 -fsyntax-only -Isrc -I"$("$PG_CONFIG" --includedir-server)")
failures=0
fail() { echo "boundary: $*"; failures=$((failures + 1)); }

if ! out=$("${compile[@]}" test/boundary/core_header_first.cpp 2>&1); then
    fail "core headers before PostgreSQL's do not compile:"; echo "$out" | head -n 5
fi
out=$("${compile[@]}" test/boundary/pg_header_first.cpp 2>&1) &&
    fail "a core header after a PostgreSQL header compiled"
grep -q "a core header is included after a PostgreSQL header" <<<"$out" ||
    fail "a core header after a PostgreSQL header failed without the guard's message"
out=$("${compile[@]}" -DIDCODEC_CORE_ONLY test/boundary/core_includes_postgres.cpp 2>&1) &&
    fail "core code including PostgreSQL headers compiled"
grep -q "src/core is plain C++ and must not include PostgreSQL headers" <<<"$out" ||
    fail "core code including PostgreSQL headers failed without the guard's message"

grep -nE '#\s*include\s*[<"](pg/|postgres|fmgr|utils/|catalog/|access/)' src/core/*/* &&
    fail "a core file includes a shim or PostgreSQL header (above)"
# Project headers are named by their path from src/ (or test/), so the rule below sees every one.
relative=$(grep -nE '#\s*include\s*"' src/core/*/* test/unit/*/* | grep -vE '#\s*include\s*"(core|unit)/' || true)
[ -z "$relative" ] || { fail "an include not named by its path from src/ or test/:"; echo "$relative"; }
for folder in src/core/*/; do
    family=$(basename "$folder")
    for dir in "$folder" "test/unit/$family/"; do
        [ -d "$dir" ] || continue
        sideways=$(grep -nE '#\s*include\s*"(core|unit)/' "$dir"* | grep -vE "\"(core|unit)/(common|$family)/" || true)
        [ -z "$sideways" ] || { fail "${dir%/} includes another family's files:"; echo "$sideways"; }
    done
done

symbols=$(grep -ho "'MODULE_PATHNAME', *'[a-z_0-9]*'" idcodec--*.sql idcodec_pg_hashids--*.sql test/releases/*.sql |
          sed "s/.*'\([a-z_0-9]*\)'$/\1/" | sort -u)
defined=$(grep -ho 'IDCODEC_SQL_FUNCTION([a-z_0-9]*)' src/pg/*.cpp | sed 's/.*(\(.*\))/\1/' | sort -u)
missing=$(comm -23 <(echo "$symbols") <(echo "$defined"))
[ -z "$missing" ] || fail "C functions of the install scripts not defined through IDCODEC_SQL_FUNCTION: $missing"
grep -nE 'PG_FUNCTION_INFO_V1|PG_FUNCTION_ARGS\)' src/pg/*.cpp src/pg/*.hpp | grep -v '^src/pg/entry.hpp:' &&
    fail "an entry point written outside IDCODEC_SQL_FUNCTION (above)"

echo "boundary: $(wc -w <<<"$symbols") C functions, every one through the entry path; $(ls -d src/core/*/ | wc -l) core" \
     "folders, none reaching into another; $failures failures"
[ "$failures" -eq 0 ]
