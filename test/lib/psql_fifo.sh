# Sourced by the suites whose clients keep one psql across many statements and reconnect when the server restarts:
# the psql reads statements from the FIFO IN and writes its output to the FIFO OUT (both made by the caller).
#
#   psql_fifo_connect PORT APPLICATION IN OUT ERR QUERY PATTERN
#       starts psql on localhost:PORT as postgres (its messages appended to ERR), sends QUERY and reads its first
#       line, which must match PATTERN; tries again while the server restarts, for up to a minute (then returns 1).
#       Sets fifo_pid (psql's), fifo_w and fifo_r (descriptors to write statements and read output) and fifo_first
#       (that first line).
#   psql_fifo_close
#       ends that psql (its input closed) and returns its exit status (2: the connection was lost).
psql_fifo_connect() {
    local port=$1 application=$2 in=$3 out=$4 err=$5 query=$6 pattern=$7 deadline=$((SECONDS + 60))
    while :; do
        psql -X -q -At -v ON_ERROR_STOP=1 \
            "host=localhost port=$port user=postgres dbname=postgres application_name=$application" \
            <"$in" >"$out" 2>>"$err" &
        fifo_pid=$!
        exec {fifo_w}>"$in" {fifo_r}<"$out"
        printf '%s\n' "$query" >&"$fifo_w" 2>/dev/null || true
        if read -r -t 30 fifo_first <&"$fifo_r" && [[ $fifo_first =~ $pattern ]]; then return 0; fi
        exec {fifo_w}>&- {fifo_r}<&-
        wait "$fifo_pid" || true
        [ $SECONDS -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

psql_fifo_close() {
    local status=0
    exec {fifo_w}>&-
    wait "$fifo_pid" || status=$?
    exec {fifo_r}<&-
    return $status
}
