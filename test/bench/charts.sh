#!/usr/bin/env bash
# make bench's pictures: from the tables the benchmark scripts leave in $BUILD/bench/ (ratios.tsv: each row's ratio
# to its floor and its target; scaling.tsv: each family's cost per unit at doubling sizes; chunkers.tsv: idcodec's
# chunkers beside their peers, GB/s), SVG charts drawn by gnuplot next to them: ratios.svg, scaling.svg,
# chunkers.svg. A table that is missing (a part of the benchmark that did not run) gives no chart.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${BUILD:-build}/bench
command -v gnuplot >/dev/null || { echo "charts: gnuplot is not installed (make bench installs gnuplot-nox)"; exit 1; }
machine="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(date -u +%Y-%m-%d)"

if [ -s "$out/ratios.tsv" ]; then
    rows=$(wc -l <"$out/ratios.tsv")
    gnuplot <<GP
set terminal svg size 900,$((120 + 22 * rows)) dynamic font "sans,11" background "white"
set termoption noenhanced
set key below
set output "$out/ratios.svg"
set title "Cost per row, relative to PostgreSQL's floor over the same rows\n(make bench on $machine)"
set datafile separator "\t"
set style fill solid 0.7 border -1
set yrange [-0.6:$rows - 0.4]
set xrange [0:*]
set ytics nomirror
set xlabel "time ÷ floor (lower is better); the mark is the target"
set grid xtics
plot "$out/ratios.tsv" using (\$2 / 2):0:(\$2 / 2):(0.35):yticlabels(1) with boxxyerror title "measured", \
     "" using 3:0 with points pointtype 7 pointsize 0.9 linecolor rgb "#c00000" title "target"
GP
fi

if [ -s "$out/scaling.tsv" ]; then
    # one line per family, from a file each (family names hold spaces and commas)
    plots=()
    number=0
    while IFS= read -r family; do
        number=$((number + 1))
        awk -F'\t' -v f="$family" '$1 == f' "$out/scaling.tsv" >"$out/scaling-$number.tsv"
        plots+=("\"$out/scaling-$number.tsv\" using 2:3 with linespoints title \"${family//\"/}\"")
    done < <(cut -f1 "$out/scaling.tsv" | awk '!seen[$0]++')
    gnuplot <<GP
set terminal svg size 900,560 dynamic font "sans,11" background "white"
set termoption noenhanced
set key below
set output "$out/scaling.svg"
set title "Cost per unit as the work doubles: a flat line is a cost linear in the work\n(make bench on $machine)"
set datafile separator "\t"
set logscale x 2
set logscale y 10
set format x "%.0f"
set xlabel "size: numbers per ID, characters, blocklist words, needles, MB (each family's own, doubling)"
set ylabel "ns per unit (numbers, characters, calls, bytes)"
set grid
plot $(IFS=','; echo "${plots[*]}")
GP
    rm -f "$out"/scaling-*.tsv
fi

if [ -s "$out/chunkers.tsv" ]; then
    gnuplot <<GP
set terminal svg size 900,480 dynamic font "sans,11" background "white"
set termoption noenhanced
set key below
set output "$out/chunkers.svg"
set title "Chunkers, one core, random bytes in memory:\nidcodec and the program it reproduces (make bench on $machine)"
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set ylabel "GB/s (higher is better)"
set yrange [0:*]
set xtics rotate by -20 nomirror
set grid ytics
plot "$out/chunkers.tsv" using 2:xticlabels(1) title "idcodec", "" using 3 title "the peer (restic, borg, fastcdc-rs)"
GP
fi
ls "$out"/*.svg 2>/dev/null | sed 's/^/chart: /'
