#!/usr/bin/env bash
# The boundary between the core and the shim, checked at build level (`make check-boundary`):
#  1. a core header included after a PostgreSQL header fails to compile, and so does a PostgreSQL header in code
#     compiled as core, while the permitted order compiles;
#  2. no core file includes a shim or PostgreSQL header, and a family's files (and its unit tests) include only
#     their own folder and common/ (no family reaches into another's);
#  3. every C function the install scripts name is defined through IDCODEC_SQL_FUNCTION, and no entry point is
#     written any other way. The earlier releases' complete install scripts (test/releases/) count: a database not
#     yet updated calls the functions they made, with the new library.
# TAP: one test per rule (the rule on families one test per family), what breaks it as the diagnostics. It reads
# and compiles the sources alone, so it does not build and install idcodec first as the suites on a cluster do
# (test/lib/suite.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
source test/lib/tap.sh
PG_CONFIG=${PG_CONFIG:-pg_config}
compile=(${CXX:-g++} -std=c++20 -fsyntax-only -Isrc -I"$("$PG_CONFIG" --includedir-server)")

if out=$("${compile[@]}" test/boundary/core_header_first.cpp 2>&1); then
    tap_ok "core headers before PostgreSQL's compile"
else
    tap_not_ok "core headers before PostgreSQL's compile" "$(head -n 5 <<<"$out")"
fi
out=$("${compile[@]}" test/boundary/pg_header_first.cpp 2>&1)
status=$?
check "a core header after a PostgreSQL header does not compile" "exit status $([ $status = 0 ] && echo 0 || echo 'not 0')" "exit status not 0"
check "... and fails with the guard's message" \
    "$(grep -o "a core header is included after a PostgreSQL header" <<<"$out" | head -n 1)" \
    "a core header is included after a PostgreSQL header"
out=$("${compile[@]}" -DIDCODEC_CORE_ONLY test/boundary/core_includes_postgres.cpp 2>&1)
status=$?
check "core code including PostgreSQL headers does not compile" "exit status $([ $status = 0 ] && echo 0 || echo 'not 0')" "exit status not 0"
check "... and fails with the guard's message" \
    "$(grep -o "src/core is plain C++ and must not include PostgreSQL headers" <<<"$out" | head -n 1)" \
    "src/core is plain C++ and must not include PostgreSQL headers"

check "no core file includes a shim or PostgreSQL header" \
    "$(grep -nE '#\s*include\s*[<"](pg/|postgres|fmgr|utils/|catalog/|access/)' src/core/*/*)" ""
# Project headers are named by their path from src/ (or test/), so the rule below sees every one.
check "every project include of the core and the unit tests is named by its path from src/ or test/" \
    "$(grep -nE '#\s*include\s*"' src/core/*/* test/unit/*/* | grep -vE '#\s*include\s*"(core|unit)/')" ""
families=0
for folder in src/core/*/; do
    family=$(basename "$folder")
    families=$((families + 1))
    sideways=""
    for dir in "$folder" "test/unit/$family/"; do
        [ -d "$dir" ] || continue
        sideways+=$(grep -nE '#\s*include\s*"(core|unit)/' "$dir"* | grep -vE "\"(core|unit)/(common|$family)/")
    done
    check "the family $family (src/core/$family, test/unit/$family) includes only its own files and common/'s" \
        "$sideways" ""
done

symbols=$(grep -ho "'MODULE_PATHNAME', *'[a-z_0-9]*'" idcodec--*.sql idcodec_pg_hashids--*.sql test/releases/*.sql |
          sed "s/.*'\([a-z_0-9]*\)'$/\1/" | sort -u)
defined=$(grep -ho 'IDCODEC_SQL_FUNCTION([a-z_0-9]*)' src/pg/*.cpp | sed 's/.*(\(.*\))/\1/' | sort -u)
check "every C function the install scripts name ($(wc -w <<<"$symbols")) is defined through IDCODEC_SQL_FUNCTION" \
    "$(comm -23 <(echo "$symbols") <(echo "$defined"))" ""
check "no entry point is written outside IDCODEC_SQL_FUNCTION" \
    "$(grep -nE 'PG_FUNCTION_INFO_V1|PG_FUNCTION_ARGS\)' src/pg/*.cpp src/pg/*.hpp | grep -v '^src/pg/entry.hpp:')" ""

tap_diag "boundary: $(wc -w <<<"$symbols") C functions named by the install scripts; $families core folders"
tap_done
