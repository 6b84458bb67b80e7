#!/usr/bin/env bash
# Interop test of cdc_chunks(data, 'rabin' | 'buzhash', ...) against the real chunkers they implement:
#   rabin   = restic's chunker (Debian golang-github-restic-chunker-dev, built with golang-go: test/interop/restic_chunks.go)
#   buzhash = borg 1.2's chunker (Debian borgbackup, borg.chunker.Chunker: test/interop/borg_chunks.py)
# Generates ~20 MB of test data (test/interop/chunking_data.py: random, repetitive text, zero runs mixed with random
# data, edge sizes), cuts every file with every parameter set on both sides and compares chunk by chunk: start and
# length, and for restic also the cut fingerprint (restic's unsigned Chunk.Cut vs the bigint cut_hash with the same
# bits, compared as numeric). TAP, on the suite's cluster: one test per peer and parameter set, passed when every
# file's chunks are alike on both sides (a failed one shows the first differing chunk of each file that differs),
# and one that the peer's side ran (for restic, that its program builds). The lines per peer/parameter set/file go
# to standard error.
#
# Installs a missing peer with apt-get (as root, or with password-less sudo); the tests of a peer that cannot be
# installed are skipped ("<peer> not installable: <reason>"), and the whole suite when no peer could be had.
# No network is used but apt's.
# IDCODEC_INTEROP_SEED=N (0..4294967295) reproduces a run's data; PSQL names the psql binary.
source "$(dirname "$0")/../lib/suite.sh"
suite_cluster

ROOT=$IDCODEC_ROOT
INTEROP_DIR=$ROOT/test/interop
PSQL=${PSQL:-psql}
GOCODE=/usr/share/gocode # Debian's GOPATH for golang-*-dev packages
SECONDS=0

# stop DESCRIPTION DETAIL: a condition the rest needs failed: its test, and the end of the suite
stop() { tap_not_ok "$1" "${2:-}"; tap_done; exit 1; }

missing=""
for tool in "$PSQL" python3; do
    command -v "$tool" >/dev/null || missing+=" $tool"
done
[ -z "$missing" ] || stop "$PSQL and python3 are on the PATH" "not found:$missing"

seed=${IDCODEC_INTEROP_SEED:-}
if [ -n "$seed" ]; then
    [[ $seed =~ ^[0-9]{1,10}$ ]] && [ "$seed" -le 4294967295 ] ||
        stop "IDCODEC_INTEROP_SEED is an integer 0..4294967295" "got $seed"
else
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
fi
tap_diag "chunking interop: seed $seed (IDCODEC_INTEROP_SEED=$seed reproduces this run)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chunking_interop.XXXXXX")
# (the cluster's trap too: suite_cluster's stops the cluster)
trap 'rm -rf "$tmp"; cluster_stop_all 2>/dev/null || true' EXIT
# Paths go into psql's \lo_import and \copy in single quotes.
[[ $tmp =~ ^[A-Za-z0-9/._-]+$ ]] || stop "the temporary directory's path needs no quoting in psql" "$tmp"

# ------------------------------------------------------------------------------------------------ peers
# apt_install PACKAGE...: installs with apt-get (updating the lists first only if they are missing or stale).
# On failure prints a one-line reason on stdout and returns 1.
apt_install() {
    local sudo=() out
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            echo "not root and no password-less sudo"
            return 1
        fi
    fi
    command -v apt-get >/dev/null || { echo "apt-get not found"; return 1; }
    local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
                   -o DPkg::Lock::Timeout=120 "$@")
    if out=$(timeout 900 "${sudo[@]}" "${install[@]}" 2>&1 </dev/null); then
        return 0
    fi
    if grep -qE "Unable to locate package|has no installation candidate|is not available|Failed to fetch|404 +Not Found" <<<"$out"; then
        if ! out=$(timeout 300 "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
                   -o DPkg::Lock::Timeout=120 2>&1 </dev/null) ||
           ! out=$(timeout 900 "${sudo[@]}" "${install[@]}" 2>&1 </dev/null); then
            :
        else
            return 0
        fi
    fi
    { grep -E '^(E|Err):' <<<"$out" || tail -n 1 <<<"$out"; } | head -n 1 | tr -s ' \t' ' '
    return 1
}

# ------------------------------------------------------------------------------------------------ parameter sets
# Every row: peer label algorithm min_size avg_size max_size seed window_size(\N = the SQL default) description.
params=$tmp/params.tsv
: >"$params"
# restic: label min_size max_size average_bits (polynomial 0x3DA3358B4DC173 = cdc_chunks' seed 0, window 64)
RESTIC_SETS=(
    "restic_default 524288 8388608 20"   # restic's MinSize, MaxSize, 20 bits
    "restic_2k_64k  2048   65536   13"
    "restic_64_4k   64     4096    10"   # min = window
    "restic_1k_1m   1024   1048576 16"
)
# borg: label seed min_exp max_exp mask_bits window (window "default" = 4095 for borg and NULL for SQL)
run_borg_seed=$(( (seed * 40503 + 12345) % 4294967296 - 2147483648 ))
BORG_SETS=(
    "borg_default   0               19 23 21 default"   # borg 1.2's default chunker params
    "borg_10_16_12  1234567890      10 16 12 4095"
    "borg_10_14_w48 -1234567890     10 14 12 48"
    "borg_12_18_14  $run_borg_seed 12 18 14 4095"      # a signed 32-bit seed drawn from the run's seed
    "borg_6_12_8    -2147483648     6  12 8  63"
)

skipped=()
peers=()

# restic: go + the chunker's source in Debian's GOPATH.
restic_present() { command -v go >/dev/null && [ -f "$GOCODE/src/github.com/restic/chunker/chunker.go" ]; }
restic_build="test/interop/restic_chunks.go builds against Debian's restic chunker (golang-github-restic-chunker-dev)"
if ! restic_present; then
    echo "chunking interop: installing golang-go golang-github-restic-chunker-dev" >&2
    if ! reason=$(apt_install golang-go golang-github-restic-chunker-dev); then
        # its build, its run and its parameter sets
        tap_skip "restic chunker (golang-go, golang-github-restic-chunker-dev) not installable: $reason" \
            $((2 + ${#RESTIC_SETS[@]}))
        skipped+=(restic)
    elif ! restic_present; then
        tap_not_ok "$restic_build" \
            "golang-go and golang-github-restic-chunker-dev installed, but go or $GOCODE/src/github.com/restic/chunker is missing"
        skipped+=(restic)
    fi
fi
if ! [[ " ${skipped[*]-} " =~ " restic " ]]; then
    gocache=$(go env GOCACHE 2>/dev/null || true)
    if [ -z "$gocache" ] || ! mkdir -p "$gocache" 2>/dev/null || [ ! -w "$gocache" ]; then gocache=$tmp/gocache; fi
    # GOPATH mode against Debian's packaged source: no module proxy, no network.
    if out=$(cd "$INTEROP_DIR" && env GO111MODULE=off GOPATH="$GOCODE" GOFLAGS= GOPROXY=off GOTOOLCHAIN=local \
             GOCACHE="$gocache" go build -o "$tmp/restic_chunks" restic_chunks.go 2>&1); then
        restic_version=$(dpkg-query -W -f='${Version}' golang-github-restic-chunker-dev 2>/dev/null || echo "?")
        tap_ok "$restic_build $restic_version ($(go version | cut -d' ' -f3))"
        peers+=(restic)
    else
        tap_not_ok "$restic_build" "$out"
        skipped+=(restic)
    fi
fi

# borg: the python3 that Debian's borgbackup is installed for (/usr/bin/python3, not a pyenv or venv one).
borg_python() {
    local py
    for py in /usr/bin/python3 python3; do
        if command -v "$py" >/dev/null && "$py" -c 'import borg.chunker' 2>/dev/null; then
            command -v "$py"
            return 0
        fi
    done
    return 1
}
if ! BORG_PY=$(borg_python); then
    echo "chunking interop: installing borgbackup" >&2
    if ! reason=$(apt_install borgbackup); then
        # its run and its parameter sets
        tap_skip "borg (borgbackup) not installable: $reason" $((1 + ${#BORG_SETS[@]}))
        skipped+=(borg)
    elif ! BORG_PY=$(borg_python); then
        tap_not_ok "borgbackup gives a python3 that imports borg.chunker" "borgbackup installed, but no python3 imports borg.chunker"
        skipped+=(borg)
    fi
fi
if ! [[ " ${skipped[*]-} " =~ " borg " ]]; then
    borg_version=$("$BORG_PY" -c 'import borg; print(borg.__version__)')
    tap_diag "chunking interop: borg $borg_version ($BORG_PY)"
    case $borg_version in
        1.2.*) peers+=(borg) ;;
        1.*) tap_diag "chunking interop: note: borg $borg_version is not 1.2; its buzhash chunker is compared all the same"
             peers+=(borg) ;;
        *) tap_skip "borg (borgbackup) not installable: Debian has borg $borg_version, whose chunker is not borg 1.x's" \
               $((1 + ${#BORG_SETS[@]}))
           skipped+=(borg) ;;
    esac
fi

if [ ${#peers[@]} -eq 0 ]; then
    # (a peer that failed to build or load has its failed test already)
    [ "$TAP_FAILED" = 0 ] || { tap_done; exit 1; }
    tap_skip_all "chunking interop: no peer available, nothing compared"
fi

peer_out=$tmp/peer.tsv
: >"$peer_out"
mkdir -p "$tmp/data"
if out=$(python3 "$INTEROP_DIR/chunking_data.py" "$seed" "$tmp/data" 2>&1 >"$tmp/sizes.txt"); then
    files=("$tmp"/data/*)
    tap_ok "test/interop/chunking_data.py writes the test data: ${#files[@]} files, $(
        awk '{ s += $2 } END { printf "%.1f MB", s / 1e6 }' "$tmp/sizes.txt")"
else
    stop "test/interop/chunking_data.py writes the test data" "$out"
fi

pids=()
if [[ " ${peers[*]} " =~ " restic " ]]; then
    for set in "${RESTIC_SETS[@]}"; do
        read -r label min max bits <<<"$set"
        printf 'restic\t%s\trabin\t%s\t%s\t%s\t0\t\\N\tmin=%s max=%s bits=%s\n' \
            "$label" "$min" $((1 << bits)) "$max" "$min" "$max" "$bits" >>"$params"
    done
    (
        for set in "${RESTIC_SETS[@]}"; do
            read -r label min max bits <<<"$set"
            "$tmp/restic_chunks" "$label" "$min" "$max" "$bits" "${files[@]}" || exit
        done >"$tmp/restic.tsv" 2>"$tmp/restic.err"
    ) &
    pids+=("$! restic restic's chunker (test/interop/restic_chunks)")
fi
if [[ " ${peers[*]} " =~ " borg " ]]; then
    for set in "${BORG_SETS[@]}"; do
        read -r label bseed min_exp max_exp mask_bits window <<<"$set"
        sql_window=$window
        if [ "$window" = default ]; then window=4095; sql_window='\N'; fi
        printf 'borg\t%s\tbuzhash\t%s\t%s\t%s\t%s\t%s\tseed=%s exp=%s,%s,%s window=%s\n' \
            "$label" $((1 << min_exp)) $((1 << mask_bits)) $((1 << max_exp)) "$bseed" "$sql_window" \
            "$bseed" "$min_exp" "$max_exp" "$mask_bits" "$window" >>"$params"
    done
    (
        for set in "${BORG_SETS[@]}"; do
            read -r label bseed min_exp max_exp mask_bits window <<<"$set"
            if [ "$window" = default ]; then window=4095; fi
            "$BORG_PY" "$INTEROP_DIR/borg_chunks.py" "$label" "$bseed" "$min_exp" "$max_exp" "$mask_bits" "$window" \
                "${files[@]}" || exit
        done >"$tmp/borg.tsv" 2>"$tmp/borg.err"
    ) &
    pids+=("$! borg borg's chunker (test/interop/borg_chunks.py)")
fi
# (a peer that fails is reported, and its parameter sets then fail on the chunks it did not give)
for entry in "${pids[@]}"; do
    read -r pid peer name <<<"$entry"
    count=${#RESTIC_SETS[@]}
    [ "$peer" = borg ] && count=${#BORG_SETS[@]}
    if wait "$pid"; then
        tap_ok "$name cuts the ${#files[@]} files with its $count parameter sets"
    else
        tap_not_ok "$name cuts the ${#files[@]} files with its $count parameter sets" "$(tail -n 20 "$tmp/$peer.err")"
    fi
done
cat "$tmp"/restic.tsv "$tmp"/borg.tsv 2>/dev/null >"$peer_out" || true
echo "chunking interop: peers done ($SECONDS s)" >&2

# ------------------------------------------------------------------------------------------------ SQL side
# One psql session: the files come in with \lo_import (client side, any size) + lo_get, the peers' chunks with \copy;
# cdc_chunks runs over every file and parameter set and the comparison is a full join by chunk index.
sql=$tmp/compare.sql
{
    cat <<'SQL'
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idcodec;
CREATE TEMP TABLE interop_file (name text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL,
                                CHECK (octet_length(data) = size));
CREATE TEMP TABLE interop_param (ord serial, peer text, label text PRIMARY KEY, algorithm text, min_size int, avg_size int,
                                 max_size int, seed bigint, window_size int, description text);
CREATE TEMP TABLE peer_chunk (label text, file text, idx bigint, start numeric, length numeric, cut numeric,
                              PRIMARY KEY (label, file, idx));
SQL
    while read -r name size; do
        printf "\\\\lo_import '%s'\n" "$tmp/data/$name"
        printf "\\\\set oid :LASTOID\n" # an INSERT sets LASTOID too
        printf "INSERT INTO interop_file VALUES ('%s', %s, lo_get(:oid));\n" "$name" "$size"
        printf "SELECT lo_unlink(:oid) AS unlinked \\\\gset\n"
    done <"$tmp/sizes.txt"
    printf "\\\\copy interop_param (peer, label, algorithm, min_size, avg_size, max_size, seed, window_size, description) FROM '%s'\n" "$params"
    printf "\\\\copy peer_chunk FROM '%s'\n" "$peer_out"
    cat <<'SQL'
CREATE TEMP TABLE sql_chunk AS
SELECT p.label, f.name AS file, c.idx, c.start::numeric AS start, c.length::numeric AS length,
       -- restic's cut is an unsigned 64-bit value; cut_hash has the same bits as a signed bigint
       CASE WHEN p.algorithm = 'rabin'
            THEN c.cut_hash::numeric + CASE WHEN c.cut_hash < 0 THEN 18446744073709551616 ELSE 0 END END AS cut
  FROM interop_param p
 CROSS JOIN interop_file f
 CROSS JOIN LATERAL cdc_chunks(f.data, p.algorithm, p.min_size, p.avg_size, p.max_size, p.seed, p.window_size)
       WITH ORDINALITY AS c(start, length, cut_hash, digest, idx);
CREATE TEMP TABLE cmp AS
SELECT coalesce(a.label, b.label) AS label, coalesce(a.file, b.file) AS file, coalesce(a.idx, b.idx) AS idx,
       a.idx AS peer_idx, a.start AS peer_start, a.length AS peer_length, a.cut AS peer_cut,
       b.idx AS sql_idx, b.start AS sql_start, b.length AS sql_length, b.cut AS sql_cut,
       (a.idx IS NULL OR b.idx IS NULL OR a.start <> b.start OR a.length <> b.length
        OR a.cut IS DISTINCT FROM b.cut) AS bad
  FROM peer_chunk a
  FULL JOIN sql_chunk b ON a.label = b.label AND a.file = b.file AND a.idx = b.idx;
\pset format unaligned
\pset tuples_only on
-- a line per parameter set and file: "file", the set's label, what was compared, and the first difference if any
SELECT concat_ws(E'\t', 'file', p.label,
       format('%-6s %-15s %-40s %-23s peer %5s / SQL %5s chunks, %s mismatches',
              p.peer, p.label, p.description, f.name, g.peer_n, g.sql_n, g.bad_n),
       CASE WHEN g.bad_n > 0
               THEN format('MISMATCH %s %s (%s, %s bytes): first difference at chunk #%s: peer %s vs SQL %s',
                           p.peer, f.name, p.description, f.size, d.idx,
                           CASE WHEN d.peer_idx IS NULL THEN 'no chunk'
                                ELSE format('start=%s length=%s', d.peer_start, d.peer_length)
                                     || coalesce(' cut=' || d.peer_cut, '') END,
                           CASE WHEN d.sql_idx IS NULL THEN 'no chunk'
                                ELSE format('start=%s length=%s', d.sql_start, d.sql_length)
                                     || coalesce(' cut=' || d.sql_cut, '') END) END)
  FROM interop_param p
 CROSS JOIN interop_file f
 CROSS JOIN LATERAL (SELECT count(peer_idx) AS peer_n, count(sql_idx) AS sql_n, count(*) FILTER (WHERE bad) AS bad_n
                       FROM cmp WHERE cmp.label = p.label AND cmp.file = f.name) g
  LEFT JOIN LATERAL (SELECT * FROM cmp WHERE cmp.label = p.label AND cmp.file = f.name AND bad
                      ORDER BY idx LIMIT 1) d ON true
 ORDER BY p.ord, f.size, f.name;
-- a line per parameter set: "set", its label, peer, description, files, chunks of the peer and of SQL, mismatches,
-- files with a mismatch
SELECT concat_ws(E'\t', 'set', p.label, p.peer, p.description, (SELECT count(*) FROM interop_file),
                 count(c.peer_idx), count(c.sql_idx), count(*) FILTER (WHERE c.bad),
                 count(DISTINCT c.file) FILTER (WHERE c.bad))
  FROM interop_param p LEFT JOIN cmp c ON c.label = p.label
 GROUP BY p.ord, p.label, p.peer, p.description
 ORDER BY p.ord;
SQL
} >"$sql"

if ! out=$("$PSQL" -X -q -f "$sql" 2>&1); then
    stop "psql runs cdc_chunks over every file and parameter set and compares" "$(tail -n 30 <<<"$out")"
fi
tap_ok "psql runs cdc_chunks over every file and parameter set and compares"
# every file's line, as the peers' runs went: progress, on standard error
grep '^file'$'\t' <<<"$out" | cut -f3 >&2 || true
comparisons=0 mismatches=0
while IFS=$'\t' read -r kind label peer description file_count peer_n sql_n bad_n bad_files; do
    [ "$kind" = set ] || continue
    comparisons=$((comparisons + peer_n)) mismatches=$((mismatches + bad_n))
    what="$peer $label ($description): the chunks of cdc_chunks are the peer's in all $file_count files"
    if [ "$bad_n" = 0 ] && [ "$peer_n" = "$sql_n" ]; then
        tap_ok "$what ($peer_n chunks)"
    else
        # the first differing chunk of each file that differs (up to 15)
        tap_not_ok "$what: $bad_n of the chunks differ, in $bad_files files (peer $peer_n, SQL $sql_n chunks)" \
            "$(awk -F'\t' -v label="$label" '$1 == "file" && $2 == label && $4 != "" { print $4 }' <<<"$out" | head -n 15)"
    fi
done <<<"$out"
details="${#files[@]} files, peers: ${peers[*]}"
[ ${#skipped[@]} -gt 0 ] && details+=", left out: ${skipped[*]}"
tap_diag "chunking interop: $comparisons chunks compared, $mismatches mismatches; $details, seed $seed, $SECONDS s"
tap_done
