# Sourced by the replication suites (after test/lib/psql_fifo.sh): a client that writes in small batches and records
# what the server acknowledged.
#
#   writer NAME PORT ROWS BATCH DIR
#
# Runs one psql (through two FIFOs, so the connection lasts across batches) on localhost:PORT and sends batches of
# BATCH rows until ROWS rows are acknowledged or the file DIR/stop exists. The caller defines
#   batch_sql FROM TO       sets the variable sql to one statement that writes rows FROM..TO and returns their keys,
#                           one a line (a single statement: one transaction, all or nothing)
#   after_batch NAME DONE   (optional) called after each acknowledged batch with the rows acknowledged so far
# Each batch's output goes to a file of its own, DIR/NAME.batch.SEQ, named in DIR/NAME.acked only once psql has
# printed the batch's result and then "done": a batch whose connection was lost on the way may or may not have
# committed, and counts as not acknowledged (its rows are written again). A lost connection (psql's status 2) is made
# again, for up to a minute; any other end of psql fails the writer. Also written: DIR/NAME.started and
# DIR/NAME.finished (times of the first batch sent and the last acknowledged, $EPOCHREALTIME), DIR/NAME.lost (a
# line per lost connection), DIR/NAME.err (psql's messages).
writer() {
    local name=$1 port=$2 rows=$3 batch=$4 dir=$5
    local in=$dir/$name.in out=$dir/$name.out done_rows=0 seq=0 w r line status to file sql
    trap '' PIPE  # a write to a psql that died fails instead of killing the writer
    mkfifo "$in" "$out"
    : >"$dir/$name.acked"
    echo "$EPOCHREALTIME" >"$dir/$name.started"
    while [ "$done_rows" -lt "$rows" ] && [ ! -e "$dir/stop" ]; do
        # connect, again while the server restarts
        psql_fifo_connect "$port" "writer-$name" "$in" "$out" "$dir/$name.err" "SELECT 'ready';" '^ready$' ||
            { echo "$name: no connection for a minute" >>"$dir/$name.err"; return 1; }
        w=$fifo_w r=$fifo_r
        while [ "$done_rows" -lt "$rows" ] && [ ! -e "$dir/stop" ]; do
            seq=$((seq + 1))
            to=$((done_rows + batch))
            [ "$to" -le "$rows" ] || to=$rows
            file=$dir/$name.batch.$seq
            batch_sql $((done_rows + 1)) "$to"
            printf '%s \\g %s\n\\echo done\n' "$sql" "$file" >&"$w" 2>/dev/null || true
            if ! read -r -t 120 line <&"$r" || [ "$line" != done ]; then break; fi
            echo "$file" >>"$dir/$name.acked"
            echo "$EPOCHREALTIME" >"$dir/$name.finished"
            done_rows=$to
            if declare -F after_batch >/dev/null; then after_batch "$name" "$done_rows"; fi
        done
        status=0
        psql_fifo_close || status=$?
        if [ "$done_rows" -lt "$rows" ] && [ ! -e "$dir/stop" ]; then
            # 2: the connection was lost; anything else (3: an error in a batch) ends the writer
            [ $status = 2 ] || { echo "$name: psql ended with status $status" >>"$dir/$name.err"; return 1; }
            echo "$name lost its connection after $done_rows rows at $EPOCHREALTIME" >>"$dir/$name.lost"
        fi
    done
    echo "$done_rows" >"$dir/$name.rows"
}

# acked_keys DIR NAME: the keys of NAME's acknowledged batches, one a line
acked_keys() {
    xargs -r -d '\n' cat <"$1/$2.acked"
}
