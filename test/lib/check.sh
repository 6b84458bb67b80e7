# The suites' assertion, sourced: check DESCRIPTION ACTUAL EXPECTED prints "ok: DESCRIPTION" when the two are equal,
# else "FAILED: DESCRIPTION" with the first lines of both; $passes and $failures count them.
passes=0
failures=0
check() {
    if [ "$2" = "$3" ]; then
        echo "ok: $1"
        passes=$((passes + 1))
    else
        echo "FAILED: $1"; echo "  got:      $2" | head -n 5; echo "  expected: $3" | head -n 5
        failures=$((failures + 1))
    fi
}

# expect DESCRIPTION... ACTUAL EXPECTED: check, the description given in as many words as the lines need
expect() { check "${*:1:$#-2}" "${@:$#-1:1}" "${@:$#}"; }
