#!/usr/bin/env bash
# The documentation cannot drift from the code (test/docs_check.py):
#   - every function of both extensions, as the catalog has it, is documented once in docs/ in a ```signature block
#     with its exact signature (defaults included) and its volatility, strictness and parallel safety, and every
#     signature documented is one the catalog has;
#   - every ```sql block of README.md and docs/*.md runs, page by page, in a fresh database with both extensions (and
#     a keyring file holding the named keys the pages use), and every line `SELECT ...;   -- value` shows the value
#     the statement gives.
# test/docs_check.py reports its problems together at its end; they are sorted here into one test for the functions'
# reference, one for the types' and one per page for its examples.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
# The migration from pg_hashids runs against the real pg_hashids, built into this installation once.
archive=$(find_peer pg_hashids-1.3.tar.gz)
if [ -n "$archive" ]; then
    source test/lib/peer_extension_build.sh
    tap_run "pg_hashids 1.3 is built into this installation, for the docs' migration from it" \
        pg_hashids_install "$archive" "$PG_BIN/pg_config"
else
    tap_skip "the docs' migration from pg_hashids: the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout"
fi

pages=(README.md docs/*.md)
errors=$(mktemp)
trap 'rm -f "$errors"; if declare -F cluster_stop_all >/dev/null; then cluster_stop_all; fi' EXIT
status=0
out=$(python3 test/docs_check.py "${pages[@]}" 2>"$errors") || status=$?

# The problems come in the order they were found: the reference's (one line each), then the examples', each
# beginning "PAGE: the examples stop with" or "PAGE: SELECT ..." and going on over the lines that follow.
summary="" functions="" types="" page=""
declare -A examples=()
while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [[ $line =~ ^docs:\ [0-9]+\ functions\ and\ types ]]; then
        summary=$line
        continue
    fi
    for candidate in "${pages[@]}"; do
        if [[ $line == "$candidate: the examples stop with"* || $line =~ ^"$candidate: SELECT"([^[:alnum:]_]|$) ]]; then
            page=$candidate
        fi
    done
    if [ -n "$page" ]; then
        examples[$page]+="$line"$'\n'
    elif [[ $line == "undocumented type: "* || $line == "the docs document type "* ]]; then
        types+="$line"$'\n'
    else
        functions+="$line"$'\n'
    fi
done <<<"$out"

problems=$([ -n "$functions$types${examples[*]}" ] && echo yes || echo no)
if [ -n "$summary" ] && [ "$status $problems" = "0 no" -o "$status $problems" = "1 yes" ]; then
    tap_ok "test/docs_check.py ran to its end"
    tap_diag "$summary"
else
    tap_not_ok "test/docs_check.py ran to its end" \
        "$(echo "exit status $status, summary: ${summary:-none}"; tail -n 20 <<<"$out"; tail -n 20 "$errors")"
    # what it found before it stopped is not known: no test of it can pass
    tap_done
    exit 1
fi
report() {  # report DESCRIPTION PROBLEMS
    if [ -z "$2" ]; then tap_ok "$1"; else tap_not_ok "$1" "$(head -n 40 <<<"$2")"; fi
}
report "every function of both extensions is documented once, with the catalog's signature and marking, and no other" \
    "$functions"
report "every type the extensions own is documented, and no other" "$types"
for page in "${pages[@]}"; do
    report "$page: every sql block runs and each SELECT shows the value documented" "${examples[$page]:-}"
done
tap_done
