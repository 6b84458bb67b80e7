# Throwaway PostgreSQL clusters for the multi-node suites (Citus, postgres_fdw), sourced by test/integration/*.sh.
#
#   cluster_start NAME PORT [SETTING ...]   initdb and start a cluster in $CLUSTERS/NAME listening on localhost:PORT
#                                           (and a socket in $CLUSTERS), trust authentication; each SETTING is a
#                                           "name=value" passed with -c
#   cluster_psql PORT [psql arguments]      psql -X -q -At -v ON_ERROR_STOP=1 on that cluster, as postgres
#
# CLUSTER_ENV (an array of NAME=value) is added to the environment of the servers started after it is set.
#
# Every cluster is stopped and removed when the sourcing script exits. The servers run as 'postgres' when we are
# root (initdb refuses root).
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
CLUSTERS=$(mktemp -d /tmp/idcodec-clusters.XXXXXX)
chmod 755 "$CLUSTERS"
[ "$(id -u)" = 0 ] && chown postgres: "$CLUSTERS"
STARTED_CLUSTERS=()
CLUSTER_ENV=()

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cluster_start() {
    local name=$1 port=$2
    shift 2
    local options=(-p "$port" -k "$CLUSTERS" -c "listen_addresses=localhost" -c "max_connections=100"
                   -c "shared_buffers=128MB" -c "fsync=off")
    local setting
    for setting in "$@"; do options+=(-c "$setting"); done
    as_postgres "$PG_BIN/initdb" -D "$CLUSTERS/$name" -U postgres -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
    as_postgres env "${CLUSTER_ENV[@]}" "$PG_BIN/pg_ctl" -D "$CLUSTERS/$name" -l "$CLUSTERS/$name.log" -w \
        -o "${options[*]}" start >/dev/null
    STARTED_CLUSTERS+=("$name")
}

cluster_psql() {
    local port=$1
    shift
    psql -X -q -At -v ON_ERROR_STOP=1 -h localhost -p "$port" -U postgres "$@"
}

cluster_stop_all() {
    local name
    for name in "${STARTED_CLUSTERS[@]}"; do
        as_postgres "$PG_BIN/pg_ctl" -D "$CLUSTERS/$name" -m immediate -w stop >/dev/null 2>&1 || true
    done
    rm -rf "$CLUSTERS"
}
trap cluster_stop_all EXIT

# free_port: a TCP port on localhost that nothing listens on.
free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 20000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}
