#!/usr/bin/env bash
# The demo's tour (examples/tour.sql) runs without an error and shows what it promises.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(psql -X -v ON_ERROR_STOP=1 -f examples/tour.sql 2>&1)
for expected in 'jD0wOTOIwqZNdydH' 'EeWYCpMbjLyXrmKVLjwa4g' 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' ' Grace' ' Linus' \
        'prefix_01h455vb4pex5vsknk084sn02q' ' acct_'; do
    grep -qF -- "$expected" <<<"$out" || { echo "the tour did not show '$expected'"; exit 1; }
done
saved=$(grep -A2 'percent_saved *$' <<<"$out" | tail -n 1 | awk -F'|' '{print $3 + 0}')
[ "${saved:-0}" -ge 40 ] || { echo "the dedup store saved only ${saved:-0}%"; exit 1; }
echo "tour: every family shown; the dedup store saved $saved%"
