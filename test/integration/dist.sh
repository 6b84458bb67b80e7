#!/usr/bin/env bash
# make dist writes the archive PGXN takes (idcodec-<META.json's version>.zip, one directory of that name holding
# META.json, the control files, the complete install script of each extension's current version and the update
# scripts), and from it, unpacked into an empty directory, idcodec builds and installs (into a staging directory:
# the test installation keeps its own build) exactly those files and the library: none of the earlier releases'
# complete install scripts (test/releases/, test fixtures), so no earlier version can be installed from it.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/lib/sources.sh
if ! is_git_checkout .; then
    # a checkout without git is the machine's fault (scripts/setup.sh installs git); a tree without .git has no
    # commits to archive
    [ ! -e .git ] || { echo "dist: git not found (scripts/setup.sh installs it)"; exit 1; }
    echo "SKIPPED: dist: the source tree is not a git checkout (make dist archives the committed sources of HEAD)"
    exit 77
fi
version=$(python3 -c 'import json; print(json.load(open("META.json"))["version"])')
archive=$(make -s dist)
[ "$archive" = "build/idcodec-$version.zip" ] || { echo "make dist wrote '$archive', not build/idcodec-$version.zip"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m zipfile -e "$archive" "$work/unpacked"
top=$(ls "$work/unpacked")
[ "$top" = "idcodec-$version" ] || { echo "the archive's top directory is '$top', not idcodec-$version"; exit 1; }
for file in META.json idcodec.control idcodec_pg_hashids.control idcodec--*.sql idcodec_pg_hashids--*.sql; do
    for wanted in $file; do
        [ -f "$work/unpacked/$top/$wanted" ] || { echo "the archive lacks $wanted"; exit 1; }
    done
done
complete=$(cd "$work/unpacked/$top" && LC_ALL=C ls -- *.sql | grep -v -- '--.*--' | paste -sd' ')
hashids_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$work/unpacked/$top/idcodec_pg_hashids.control")
[ "$complete" = "idcodec--$version.sql idcodec_pg_hashids--$hashids_version.sql" ] ||
    { echo "the archive's top directory holds the complete install scripts $complete, not one per extension"; exit 1; }
make -s -C "$work/unpacked/$top" -j"$(nproc)" PG_CONFIG="$PG_BIN/pg_config" >"$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log"; exit 1; }
make -s -C "$work/unpacked/$top" install DESTDIR="$work/root" PG_CONFIG="$PG_BIN/pg_config" >>"$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log"; exit 1; }
libdir=$("$PG_BIN/pg_config" --pkglibdir)
extdir=$("$PG_BIN/pg_config" --sharedir)/extension
for file in "$libdir/idcodec.so" "$extdir/idcodec.control" "$extdir/idcodec--$version.sql" "$extdir/idcodec_pg_hashids.control"; do
    [ -f "$work/root$file" ] || { echo "make install from the archive did not install $file"; exit 1; }
done
installed=$(LC_ALL=C ls "$work/root$extdir" | paste -sd' ')
shipped=$(cd "$work/unpacked/$top" && LC_ALL=C ls -- *.control *.sql | LC_ALL=C sort | paste -sd' ')
[ "$installed" = "$shipped" ] ||
    { echo "make install from the archive installed $installed, not the archive's control files and scripts ($shipped)"; exit 1; }
echo "dist: $archive ($(python3 -c "import zipfile,sys; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))" "$archive") entries," \
     "$(($(stat -c %s "$archive") / 1024)) kB) unpacks into $top, builds and installs its $(wc -w <<<"$installed") extension" \
     "files (one complete install script per extension)"
