# Throwaway PostgreSQL clusters, sourced by scripts/setup.sh and the suites that need clusters of their own.
#
#   cluster_start NAME PORT [SETTING ...]   initdb and start a cluster in $CLUSTERS/NAME listening on localhost:PORT
#                                           (and a socket in $CLUSTERS), trust authentication; each SETTING is a
#                                           "name=value" passed with -c. Fails with the server's log, never hangs:
#                                           initdb and the start each have a time limit.
#   cluster_init NAME [INITDB_OPTION ...]   only the initdb (e.g. the new cluster of pg_upgrade)
#   cluster_run NAME PORT [SETTING ...]     only the start, of a cluster made by cluster_init
#   cluster_psql PORT [psql arguments]      psql -X -q -At -v ON_ERROR_STOP=1 on that cluster, as postgres
#   cluster_log NAME                        the server log of a cluster
#   cluster_stop NAME                       a clean (fast) shutdown, e.g. before pg_upgrade
#
# PG_BIN chooses the PostgreSQL programs; CLUSTER_ENV (an array of NAME=value) is added to the environment of the
# servers started after it is set.
#
# Every cluster is stopped and removed when the sourcing script exits, also when it is interrupted (INT, TERM, HUP).
# A run killed outright (SIGKILL) cannot clean up: a watchdog started with the first cluster directory does it, and
# should that be gone too, the next run that sources this file stops the clusters of every earlier run whose process
# is gone. The servers run as 'postgres' when we are root (initdb refuses root), from /,
# since the postgres user may not be able to enter the checkout.
source "$(dirname "${BASH_SOURCE[0]}")/lock.sh"
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
CLUSTER_START_SECONDS=${CLUSTER_START_SECONDS:-120}
STARTED_CLUSTERS=()
CLUSTER_ENV=()

# as_postgres COMMAND...: runs it as the server user when we are root (from /, which that user can enter).
as_postgres() {
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# cluster_kill DATA_DIRECTORY: an immediate shutdown of the server running there, if one is, whatever its major (the
# postmaster's pid is in its pid file, and the process must be a postgres started on that directory: a stale pid
# file may name a process that is not); waits up to 30 s for it to end.
cluster_kill() {
    local pid tries=0
    pid=$(head -n 1 "$1/postmaster.pid" 2>/dev/null) || return 0
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-D $1" || return 0
    kill -QUIT "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null && [ $tries -lt 300 ]; do sleep 0.1; tries=$((tries + 1)); done
}

# Stops the servers of clusters whose owning run has ended (its process is gone) and removes their directories.
cluster_sweep_stale() {
    local dir owner pidfile
    for dir in "${TMPDIR:-/tmp}"/idcodec-clusters.*; do
        [ -d "$dir" ] || continue
        owner=$(cat "$dir/owner" 2>/dev/null || true)
        if [ -z "$owner" ]; then
            # being made by a suite starting beside this one (its owner is written just after the directory): only
            # one left so for over a minute is stale
            [ -n "$(find "$dir" -maxdepth 0 -mmin +1)" ] || continue
        elif [ -d "/proc/$owner" ]; then
            continue  # alive, whoever owns it (kill -0 would say no for another user's process)
        fi
        for pidfile in "$dir"/*/postmaster.pid; do
            [ -f "$pidfile" ] || continue
            echo "stopping a cluster left running by an earlier run: ${pidfile%/postmaster.pid}" >&2
            cluster_kill "${pidfile%/postmaster.pid}"
        done
        rm -rf "$dir" 2>/dev/null || true
    done
}
cluster_sweep_stale

CLUSTERS=$(mktemp -d "${TMPDIR:-/tmp}/idcodec-clusters.XXXXXX")
echo $$ >"$CLUSTERS/owner"
chmod 755 "$CLUSTERS"
[ "$(id -u)" = 0 ] && chown postgres: "$CLUSTERS"
# A watchdog in a session of its own (so a kill of the run's whole process group spares it) stops the clusters
# when the run ends without cleaning up; after a clean end it finds nothing left.
export -f cluster_kill
setsid bash -c 'while [ -d "/proc/$1" ]; do sleep 2; done
                for pidfile in "$2"/*/postmaster.pid; do [ -f "$pidfile" ] && cluster_kill "${pidfile%/postmaster.pid}"; done
                rm -rf "$2"' cluster-watchdog $$ "$CLUSTERS" </dev/null >/dev/null 2>&1 &

cluster_log() {
    echo "$CLUSTERS/$1.log"
}

cluster_init() {
    local name=$1
    shift
    if ! as_postgres timeout --foreground "$CLUSTER_START_SECONDS" "$PG_BIN/initdb" -D "$CLUSTERS/$name" -U postgres -E UTF8 \
            --locale=C.UTF-8 -A trust --no-sync "$@" >"$CLUSTERS/$name.initdb.log" 2>&1; then
        echo "initdb of cluster $name failed or took over ${CLUSTER_START_SECONDS}s ($PG_BIN/initdb):" >&2
        tail -n 20 "$CLUSTERS/$name.initdb.log" >&2
        return 1
    fi
    STARTED_CLUSTERS+=("$name")
}

cluster_run() {
    local name=$1 port=$2
    shift 2
    local options=(-p "$port" -k "$CLUSTERS" -c "listen_addresses=localhost" -c "max_connections=100"
                   -c "shared_buffers=128MB" -c "fsync=off")
    local setting
    for setting in "$@"; do options+=(-c "$setting"); done
    if ! as_postgres timeout --foreground "$((CLUSTER_START_SECONDS + 10))" env "${CLUSTER_ENV[@]}" "$PG_BIN/pg_ctl" \
            -D "$CLUSTERS/$name" -l "$CLUSTERS/$name.log" -w -t "$CLUSTER_START_SECONDS" -o "${options[*]}" start >/dev/null; then
        echo "cluster $name did not start within ${CLUSTER_START_SECONDS}s; its log:" >&2
        tail -n 20 "$CLUSTERS/$name.log" >&2
        return 1
    fi
}

cluster_start() {
    cluster_init "$1" && cluster_run "$@"
}

cluster_stop() {
    as_postgres "$PG_BIN/pg_ctl" -D "$CLUSTERS/$1" -m fast -w -t "$CLUSTER_START_SECONDS" stop >/dev/null
}

cluster_psql() {
    local port=$1
    shift
    psql -X -q -At -v ON_ERROR_STOP=1 -h localhost -p "$port" -U postgres "$@"
}

# cluster_reload PORT: the server on PORT reads its configuration again, and this returns once a new session sees the
# new reading (pg_conf_load_time changed; the reload is asynchronous), or after 5 s. cluster_await_reload PORT BEFORE
# waits alike for a reload asked for elsewhere, BEFORE being pg_conf_load_time from before it.
cluster_reload() {
    local before
    before=$(cluster_psql "$1" -c "SELECT pg_conf_load_time()")
    cluster_psql "$1" -c "SELECT pg_reload_conf()" >/dev/null
    cluster_await_reload "$1" "$before"
}

cluster_await_reload() {
    local _
    for _ in $(seq 1 100); do
        [ "$(cluster_psql "$1" -c "SELECT pg_conf_load_time()")" != "$2" ] && return 0
        sleep 0.05
    done
}

# cluster_stop_all: every cluster of this run stopped at once and the clusters' directory removed (the EXIT trap).
cluster_stop_all() {
    local name
    for name in "${STARTED_CLUSTERS[@]}"; do cluster_kill "$CLUSTERS/$name"; done
    STARTED_CLUSTERS=()
    rm -rf "$CLUSTERS"
}
trap cluster_stop_all EXIT
# An interrupted run exits through the EXIT trap, so its clusters stop too.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# free_port: a TCP port on localhost that nothing listens on, that no client connection can take for its own end,
# and that no test run on this machine has handed out
# (callers take several before starting any server, and two runs may start servers side by side). The ledger is one
# file of "port owner" lines beside the locks; the owner is the run (IDCODEC_PORT_OWNER, the process that first
# sourced this file, which scripts/test.sh's suites inherit), and a run's lines go once it has ended.
export IDCODEC_PORT_OWNER=${IDCODEC_PORT_OWNER:-$$}
free_port() {
    with_lock ports free_port_from "${TMPDIR:-/tmp}/idcodec-locks/ports.list"
}

free_port_from() {
    local port owner
    touch "$1"
    chmod 666 "$1" 2>/dev/null || true
    while read -r port owner; do
        if [ -n "$owner" ] && [ -d "/proc/$owner" ]; then echo "$port $owner"; fi
    done <"$1" >"$1.live"
    cat "$1.live" >"$1"
    rm -f "$1.live"
    # below the kernel's range of ephemeral ports: a client's outgoing connection (Citus nodes connect to each
    # other by TCP) may take any port in that range as its own end, and a server then fails to bind it
    local ephemeral_first
    read -r ephemeral_first _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || ephemeral_first=32768
    [ "$ephemeral_first" -gt 12000 ] || { echo "free_port: ephemeral ports begin at $ephemeral_first" >&2; return 1; }
    while :; do
        port=$((10000 + RANDOM % (ephemeral_first - 10000)))
        grep -q "^$port " "$1" && continue
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
        echo "$port $IDCODEC_PORT_OWNER" >>"$1"
        echo "$port"
        return
    done
}
