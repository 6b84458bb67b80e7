#!/usr/bin/env bash
# idcodec's chunkers side by side with the implementations they reproduce (run by `make bench`): restic's chunker
# (Go, Debian's golang-github-restic-chunker-dev), borg's (C, Debian's borgbackup, driven from Python as borg drives
# it) and fastcdc-rs (Rust, v2020). All cut the same file of random bytes held in memory, with the same settings,
# alternately, best of BENCH_PEERS_ROUNDS passes each; the chunk counts must agree. A peer that is not there is
# reported (this is a benchmark: it installs nothing), and its rows still show idcodec's speed and say plainly that
# the comparison was not made. Targets: idcodec at least 1.5× restic and borg, 2× fastcdc-rs.
#
# fastcdc-rs is in neither Debian nor npm, so its source is given: FASTCDC_RS_SRC names a source tree of the crate,
# or a crate archive fastcdc-*.crate is looked for in $IDCODEC_PEERS and beside the checkout. It is built offline
# with cargo against fastcdc_rs_speed.rs (the crate needs nothing else for its in-memory chunker).
# BENCH_PEERS_MB sets the file's size (256 by default), BENCH_PEERS_ROUNDS the passes per program run (3). The
# window is each peer's default (restic 64 bytes, borg 4095).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
HERE=$ROOT/test/bench/peers
cd "$ROOT"
BUILD=${BUILD:-build}
MB=${BENCH_PEERS_MB:-256}
ROUNDS=${BENCH_PEERS_ROUNDS:-3}
GOCODE=/usr/share/gocode  # Debian's GOPATH for golang-*-dev packages

tmp=$(mktemp -d "${TMPDIR:-/tmp}/idcodec_peers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

make -s "$BUILD/chunker_speed" >/dev/null
head -c $((MB << 20)) /dev/urandom >"$tmp/data"

restic=""
if command -v go >/dev/null && [ -f "$GOCODE/src/github.com/restic/chunker/chunker.go" ]; then
    (cd "$HERE" && GO111MODULE=off GOPATH=$GOCODE GOCACHE=$tmp/gocache GOFLAGS=-mod=mod \
        go build -o "$tmp/restic_speed" restic_speed.go) && restic=$tmp/restic_speed
fi
[ -n "$restic" ] || echo "restic: not available (install golang-go and golang-github-restic-chunker-dev)"
borg_python=""
for py in /usr/bin/python3 python3; do
    if command -v "$py" >/dev/null && "$py" -c 'import borg.chunker' 2>/dev/null; then borg_python=$py; break; fi
done
[ -n "$borg_python" ] || echo "borg: not available (install borgbackup)"
fastcdc_rs=""
fastcdc_src=${FASTCDC_RS_SRC:-}
if [ -z "$fastcdc_src" ]; then
    for dir in ${IDCODEC_PEERS:-} "$(dirname "$ROOT")"; do
        [ -d "$dir" ] || continue
        crate=$(find -L "$dir" -maxdepth 3 -name 'fastcdc-*.crate' -type f -not -path "$ROOT/*" 2>/dev/null | sort | tail -n 1)
        [ -n "$crate" ] || continue
        mkdir -p "$tmp/fastcdc-src" && tar -xzf "$crate" -C "$tmp/fastcdc-src" --strip-components=1
        fastcdc_src=$tmp/fastcdc-src
        break
    done
fi
if [ -n "$fastcdc_src" ] && command -v cargo >/dev/null; then
    # The crate's library under a manifest of our own: its optional dependencies (async streaming) would have to be
    # resolved even when unused, and nothing but Debian's and npm's registries can be reached.
    fastcdc_version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$fastcdc_src/Cargo.toml" | head -n 1)
    fastcdc_edition=$(sed -n 's/^edition *= *"\(.*\)"/\1/p' "$fastcdc_src/Cargo.toml" | head -n 1)
    mkdir -p "$tmp/fastcdc-lib" "$tmp/fastcdc-driver"
    cp -r "$fastcdc_src/src" "$tmp/fastcdc-lib/"
    [ -f "$fastcdc_src/build.rs" ] && cp "$fastcdc_src/build.rs" "$tmp/fastcdc-lib/"
    cat >"$tmp/fastcdc-lib/Cargo.toml" <<TOML
[package]
name = "fastcdc"
version = "${fastcdc_version:-0.0.0}"
edition = "${fastcdc_edition:-2018}"
TOML
    cat >"$tmp/fastcdc-driver/Cargo.toml" <<TOML
[package]
name = "fastcdc_rs_speed"
version = "0.0.0"
edition = "2021"

[dependencies]
fastcdc = { path = "$tmp/fastcdc-lib" }

[[bin]]
name = "fastcdc_rs_speed"
path = "$HERE/fastcdc_rs_speed.rs"
TOML
    (cd "$tmp/fastcdc-driver" && CARGO_TARGET_DIR=$tmp/fastcdc-target cargo build -q --release --offline) &&
        fastcdc_rs=$tmp/fastcdc-target/release/fastcdc_rs_speed
    [ -n "$fastcdc_rs" ] && echo "fastcdc-rs: ${fastcdc_version:-?}, from $fastcdc_src"
fi
[ -n "$fastcdc_rs" ] || echo "fastcdc-rs: not available (set FASTCDC_RS_SRC to its source, or put fastcdc-*.crate beside the checkout; needs cargo)"

# Rows: label | idcodec algorithm min avg max | peer (restic: min max bits; borg: seed min_exp max_exp mask_bits window;
# fastcdc-rs: min avg max) | target
ROWS=(
    "fastcdc vs fastcdc-rs, 4 KiB / 16 KiB / 64 KiB|fastcdc 4096 16384 65536|fastcdc-rs 4096 16384 65536|2.0"
    "fastcdc vs fastcdc-rs, 16 KiB / 64 KiB / 256 KiB|fastcdc 16384 65536 262144|fastcdc-rs 16384 65536 262144|2.0"
    "rabin vs restic, 512 KiB / 1 MiB / 8 MiB|rabin 524288 1048576 8388608|restic 524288 8388608 20|1.5"
    "rabin vs restic, 2 KiB / 8 KiB / 64 KiB|rabin 2048 8192 65536|restic 2048 65536 13|1.5"
    "buzhash vs borg, 2^19 / 2^21 / 2^23|buzhash 524288 2097152 8388608|borg 0 19 23 21 4095|1.5"
    "buzhash vs borg, 2^10 / 2^12 / 2^16|buzhash 1024 4096 65536|borg 0 10 16 12 4095|1.5"
)

best() {  # best "ns chunks" of the lines on stdin
    sort -n | head -n 1
}

echo
echo "Chunkers side by side: $MB MiB of random bytes in memory, one core, best of $((2 * ROUNDS)) passes"
printf '%-48s %12s %12s %7s %7s  %s\n' "chunker, min / avg / max" "idcodec" "peer" "ratio" "target" "verdict"
status=0
# For make bench's chart (test/bench/charts.sh): label, idcodec GB/s, the peer's GB/s ("NaN" when not measured).
mkdir -p "$BUILD/bench"
chart=$BUILD/bench/chunkers.tsv
: >"$chart"
for row in "${ROWS[@]}"; do
    IFS='|' read -r label ours peer target <<<"$row"
    read -r algorithm min avg max <<<"$ours"
    read -r peer_name peer_args <<<"$peer"
    peer_cmd=()
    case $peer_name in
        restic) [ -z "$restic" ] || peer_cmd=("$restic" "$tmp/data" $peer_args "$ROUNDS") ;;
        borg) [ -z "$borg_python" ] || peer_cmd=("$borg_python" "$HERE/borg_speed.py" "$tmp/data" $peer_args "$ROUNDS") ;;
        fastcdc-rs) [ -z "$fastcdc_rs" ] || peer_cmd=("$fastcdc_rs" "$tmp/data" $peer_args "$ROUNDS") ;;
    esac
    : >"$tmp/ours" && : >"$tmp/peer"
    for _ in 1 2; do  # alternately, so a slow phase of the machine hits both
        "$BUILD/chunker_speed" "$tmp/data" "$algorithm" "$min" "$avg" "$max" "$ROUNDS" >>"$tmp/ours"
        [ ${#peer_cmd[@]} -eq 0 ] || "${peer_cmd[@]}" >>"$tmp/peer"
    done
    read -r ours_ns ours_chunks < <(best <"$tmp/ours")
    if [ ${#peer_cmd[@]} -eq 0 ]; then  # idcodec's own speed, and why there is no ratio
        awk -v label="$label" -v bytes=$((MB << 20)) -v ours="$ours_ns" -v target="$target" -v peer="$peer_name" 'BEGIN {
            printf "%-48s %7.2f GB/s %12s %7s %6.1fx  not measured: %s is not available (above)\n", label,
                bytes / ours, "-", "-", target, peer
        }'
        awk -v label="$label" -v bytes=$((MB << 20)) -v ours="$ours_ns" 'BEGIN { printf "%s\t%.3f\tNaN\n", label, bytes / ours }' >>"$chart"
        continue
    fi
    read -r peer_ns peer_chunks < <(best <"$tmp/peer")
    if [ "$ours_chunks" != "$peer_chunks" ]; then
        echo "$label: idcodec cut $ours_chunks chunks, $peer_name $peer_chunks" >&2
        status=1
        continue
    fi
    awk -v label="$label" -v bytes=$((MB << 20)) -v ours="$ours_ns" -v peer="$peer_ns" -v target="$target" 'BEGIN {
        ratio = peer / ours
        printf "%-48s %7.2f GB/s %7.2f GB/s %6.2fx %6.1fx  %s\n", label, bytes / ours, bytes / peer, ratio, target,
            (ratio >= target ? "meets" : "misses")
    }'
    awk -v label="$label" -v bytes=$((MB << 20)) -v ours="$ours_ns" -v peer="$peer_ns" \
        'BEGIN { printf "%s\t%.3f\t%.3f\n", label, bytes / ours, bytes / peer }' >>"$chart"
done
exit $status
