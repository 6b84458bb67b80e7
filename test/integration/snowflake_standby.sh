#!/usr/bin/env bash
# Snowflake generation and a standby: a base backup carries the primary's idcodec.node_id (ALTER SYSTEM wrote it to
# postgresql.auto.conf) and its state file, so a hot standby must refuse to generate (25006) rather than repeat the
# primary's IDs, while the primary generates on; promoted (a failover: the primary stopped first), it generates
# with the primary's number, above every ID the primary made.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/check.sh
source test/lib/cluster.sh
primary_port=$(free_port)
standby_port=$(free_port)
cluster_start primary "$primary_port" "wal_level=replica"
p() { cluster_psql "$primary_port" -d postgres "$@"; }
s() { cluster_psql "$standby_port" -d postgres "$@"; }
p -c "CREATE EXTENSION idcodec" -c "LOAD 'idcodec'" -c "ALTER SYSTEM SET idcodec.node_id = 21" -c "SELECT pg_reload_conf()" >/dev/null
p -c "CREATE TABLE made (id bigint PRIMARY KEY)" -c "INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000)"

as_postgres "$PG_BIN/pg_basebackup" -h "$CLUSTERS" -p "$primary_port" -U postgres -D "$CLUSTERS/standby" -R -X stream -c fast
cluster_run standby "$standby_port"
check "the standby has the primary's node number" "$(s -c "SHOW idcodec.node_id")" "21"
check "a standby refuses to generate: 25006, nothing made" \
    "$(s -c "\set VERBOSITY sqlstate" -c "SELECT snowflake_generate()" 2>&1)" "ERROR:  25006"
p -c "INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000)"
check "the primary generates on" "$(p -c "SELECT count(*), count(DISTINCT id), bool_and(snowflake_node(id) = 21) FROM made")" \
    "20000|20000|t"

# a failover: the primary goes, the standby (caught up) is promoted and generates
for _ in $(seq 1 100); do
    [ "$(s -c "SELECT count(*) FROM made")" = 20000 ] && break
    sleep 0.1
done
highest=$(p -c "SELECT max(id) FROM made")
cluster_stop primary
s -c "SELECT pg_promote()" >/dev/null
s -c "INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000)"
check "promoted, it generates with the primary's number, above every ID the primary made" \
    "$(s -c "SELECT count(*), count(DISTINCT id), bool_and(snowflake_node(id) = 21), min(id) FILTER (WHERE id > $highest) IS NOT NULL,
                    count(*) FILTER (WHERE id > $highest) FROM made")" "30000|30000|t|t|10000"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
