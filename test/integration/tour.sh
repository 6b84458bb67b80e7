#!/usr/bin/env bash
# The demo's tour (examples/tour.sql) runs without an error and shows what it promises.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster
if out=$(psql -X -v ON_ERROR_STOP=1 -f examples/tour.sql 2>&1); then
    tap_ok "the tour runs without an error"
else
    tap_not_ok "the tour runs without an error" "$(tail -n 20 <<<"$out")"
fi
# one test per value the tour must show
for expected in 'jD0wOTOIwqZNdydH' 'EeWYCpMbjLyXrmKVLjwa4g' 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' ' Grace' ' Linus' \
        'prefix_01h455vb4pex5vsknk084sn02q' ' acct_'; do
    if grep -qF -- "$expected" <<<"$out"; then
        tap_ok "the tour shows '$expected'"
    else
        tap_not_ok "the tour shows '$expected'"
    fi
done
saved=$(grep -A2 'percent_saved *$' <<<"$out" | tail -n 1 | awk -F'|' '{print $3 + 0}' || true)
if [ "${saved:-0}" -ge 40 ]; then
    tap_ok "the dedup store saves at least 40% ($saved%)"
else
    tap_not_ok "the dedup store saves at least 40%" "it saved only ${saved:-0}%"
fi
tap_done
