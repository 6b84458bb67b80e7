#!/usr/bin/env bash
# Every one-line example in README.md of the form `SELECT <expression>;   -- value` gives that value.
# (Queries over example tables, multi-line examples and prose comments such as "-- the same: ..." are not checked.)
set -euo pipefail
export PGOPTIONS="-c timezone=UTC"
psql -X -q -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS idcodec"
checked=0
failed=0
while IFS= read -r line; do
    query=${line%%;*}
    expected=${line#*;}
    expected=${expected#"${expected%%[![:space:]]*}"}   # trim leading blanks
    expected=${expected#-- }
    expected=${expected%% (*}                            # drop a trailing parenthetical remark
    expected=${expected%"${expected##*[![:space:]]}"}   # trim trailing blanks
    case "$expected" in the\ *|an\ *|a\ *|*:\ *) continue ;; esac
    actual=$(psql -X -q -At -c "$query;" 2>&1) || true
    checked=$((checked + 1))
    if [ "$actual" != "$expected" ]; then
        failed=$((failed + 1))
        echo "README example: $query"
        echo "  documented: $expected"
        echo "  actual:     $actual"
    fi
done < <(sed -n '/^```sql$/,/^```$/p' README.md | grep -E '^SELECT .*;[[:space:]]+-- ' | grep -v ' FROM ')
echo "README examples: $checked checked, $failed wrong"
[ "$checked" -gt 20 ] && [ "$failed" -eq 0 ]
