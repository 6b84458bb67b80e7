# A Citus cluster on local ports for the Citus suites: a coordinator and two workers, each a throwaway cluster of
# test/lib/cluster.sh (stopped and removed when the suite exits). Sourced by suites in TAP (test/lib/tap.sh) after
# test/lib/citus_build.sh.
#
#   citus_cluster_require               citus_require for such a suite: its messages on stderr; the suite skips as a
#                                       whole when Citus's source is not beside the checkout, and ends with a failed
#                                       test when Citus does not build
#   citus_cluster_start [SETTING ...]   starts the three nodes (each SETTING "name=value" on every node), creates
#                                       Citus on each and adds the workers; sets $coordinator and $workers (ports)
#   c [psql arguments]                  psql on the coordinator's postgres database
#   citus_nodes                         the ports of every node, the coordinator first
#   citus_node_name PORT                coordinator, worker1 or worker2
#   citus_restart_node PORT             starts that node's server again (after it was stopped or killed)
#   citus_per_node SQL                  its result on every node, the coordinator first, one line each
#   citus_crashes                       the lines of every node's log that tell of a backend ended by a signal or
#                                       a failed assertion (none when all is well; a killed postmaster leaves none)
source test/lib/cluster.sh

# wal_level=logical: shard moves copy the shards by logical replication, as they do by default
CITUS_NODE_SETTINGS=("shared_preload_libraries=citus" "max_prepared_transactions=100" "max_connections=200"
                     "wal_level=logical" "max_wal_senders=20" "max_replication_slots=20")
CITUS_EXTRA_SETTINGS=()

citus_cluster_start() {
    CITUS_EXTRA_SETTINGS=("$@")
    coordinator=$(free_port)
    workers=("$(free_port)" "$(free_port)")
    local port
    for port in "$coordinator" "${workers[@]}"; do
        cluster_start "$(citus_node_name "$port")" "$port" "${CITUS_NODE_SETTINGS[@]}" "$@" || return 1
        cluster_psql "$port" -c "CREATE EXTENSION citus" || return 1
    done
    # (each step checked: a caller testing the start runs this where set -e does not apply)
    c -c "SELECT citus_set_coordinator_host('localhost', $coordinator)" >/dev/null || return 1
    for port in "${workers[@]}"; do c -c "SELECT citus_add_node('localhost', $port)" >/dev/null || return 1; done
}

citus_cluster_require() {
    local out status=0
    out=$(citus_require 2>&1) || status=$?
    case $status in
        0) printf '%s\n' "$out" >&2 ;;
        # citus_require's reason is its "SKIPPED: " line
        77) tap_skip_all "$(sed -n 's/^SKIPPED: //p' <<<"$out" | tail -n 1)" ;;
        *) tap_not_ok "Citus $(citus_release) builds for $("$(citus_pg_config)" --version)" "$(tail -n 30 <<<"$out")"
           tap_done || true
           exit 1 ;;
    esac
}

c() { cluster_psql "$coordinator" -d postgres "$@"; }

citus_nodes() { echo "$coordinator" "${workers[@]}"; }

citus_node_name() {
    if [ "$1" = "$coordinator" ]; then echo coordinator
    elif [ "$1" = "${workers[0]}" ]; then echo worker1
    else echo worker2
    fi
}

citus_per_node() {
    local port
    for port in $(citus_nodes); do cluster_psql "$port" -d postgres -c "$1" | paste -sd' '; done
}

citus_crashes() {
    local port
    for port in $(citus_nodes); do
        grep -E -A3 'terminated by signal|TRAP:' "$(cluster_log "$(citus_node_name "$port")")" || true
    done | head -n 20
}

citus_restart_node() {
    cluster_run "$(citus_node_name "$1")" "$1" "${CITUS_NODE_SETTINGS[@]}" "${CITUS_EXTRA_SETTINGS[@]}"
}
