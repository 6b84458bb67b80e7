#!/usr/bin/env bash
# The libpq chaos driver (test/chaos/chaos_driver.cpp) against a cluster of its own: 32 connections run the mixed
# workload while queries are cancelled, backends terminated and one backend killed with SIGKILL (crash recovery);
# afterwards nothing acknowledged may be lost or wrong and nothing unacknowledged half-applied.
# IDCODEC_CHAOS_SECONDS (default 20) and IDCODEC_CHAOS_CONNECTIONS (default 32) size the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
make -s build/chaos_driver PG_CONFIG="${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config"
source test/lib/cluster.sh
port=$(free_port)
cluster_start chaos "$port" "max_connections=100" "restart_after_crash=on"
cluster_psql "$port" -d postgres -f test/chaos/schema.sql
build/chaos_driver "host=localhost port=$port user=postgres dbname=postgres connect_timeout=5" \
    --connections "${IDCODEC_CHAOS_CONNECTIONS:-32}" --seconds "${IDCODEC_CHAOS_SECONDS:-20}" --seed "$RANDOM"
