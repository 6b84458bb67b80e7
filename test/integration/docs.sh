#!/usr/bin/env bash
# The documentation cannot drift from the code (test/docs_check.py):
#   - every function of both extensions, as the catalog has it, is documented once in docs/ in a ```signature block
#     with its exact signature (defaults included) and its volatility, strictness and parallel safety, and every
#     signature documented is one the catalog has;
#   - every ```sql block of README.md and docs/*.md runs, page by page, in a fresh database with both extensions (and
#     a keyring file holding the named keys the pages use), and every line `SELECT ...;   -- value` shows the value
#     the statement gives.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The migration from pg_hashids runs against the real pg_hashids, built into this installation once.
archive=$(find_peer pg_hashids-1.3.tar.gz)
if [ -n "$archive" ]; then
    source test/lib/peer_extension_build.sh
    pg_hashids_install "$archive" "$PG_BIN/pg_config" >/dev/null
else
    echo "SKIPPED: the docs' migration from pg_hashids: the pg_hashids 1.3 source (pg_hashids-1.3.tar.gz) is not beside the checkout"
fi
exec python3 test/docs_check.py README.md docs/*.md
