# peak_private_mb OUTPUT SQL: runs SQL in a backend of its own (after a short pause, so it can be found), writes its
# output to OUTPUT, and prints how many MB the backend's private memory (RssAnon: shared buffers excluded) peaked
# above its start, sampled every 10 ms. Sourced by the SQL-level checks; uses PGHOST/PGPORT/PGUSER/PGDATABASE.
peak_private_mb() {
    local output=$1 sql=$2 app="idcodec_peak_$$"
    PGAPPNAME=$app psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT pg_sleep(0.3)" -c "$sql" >"$output" &
    local client=$! pid="" baseline peak now
    for _ in $(seq 1 100); do
        pid=$(psql -X -q -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app'")
        [ -n "$pid" ] && break
        sleep 0.02
    done
    baseline=$(awk '/RssAnon/ {print $2}' "/proc/$pid/status")
    peak=$baseline
    while kill -0 "$client" 2>/dev/null; do
        now=$(awk '/RssAnon/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
        [ "${now:-0}" -gt "$peak" ] && peak=$now
        sleep 0.01
    done
    wait "$client"
    echo $(( (peak - baseline) / 1024 ))
}
