#!/usr/bin/env bash
# make dist writes the archive PGXN takes (idcodec-<META.json's version>.zip, one directory of that name holding
# META.json, the control files, the complete install script of each extension's current version and the update
# scripts), and from it, unpacked into an empty directory, idcodec builds and installs (into a staging directory:
# the test installation keeps its own build) exactly those files and the library: none of the earlier releases'
# complete install scripts (test/releases/, test fixtures), so no earlier version can be installed from it.
source "$(dirname "$0")/../lib/suite.sh"
source test/lib/sources.sh
if ! is_git_checkout .; then
    # a checkout without git is the machine's fault (scripts/setup.sh installs git); a tree without .git has no
    # commits to archive
    if [ -e .git ]; then
        tap_not_ok "git reads the checkout (scripts/setup.sh installs it)" "dist: git not found"
        tap_done
        exit 1
    fi
    tap_skip_all "dist: the source tree is not a git checkout (make dist archives the committed sources of HEAD)"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(python3 -c 'import json; print(json.load(open("META.json"))["version"])')
archive=$(make -s dist 2>"$work/dist.log") || archive="make dist failed: $(tail -n 10 "$work/dist.log")"
check "make dist writes build/idcodec-$version.zip" "$archive" "build/idcodec-$version.zip"
# what follows reads the archive: without it, nothing more can be tested
[ "$archive" = "build/idcodec-$version.zip" ] || { tap_done; exit 1; }
tap_run "the archive unpacks" python3 -m zipfile -e "$archive" "$work/unpacked"
top=$(ls "$work/unpacked" 2>/dev/null || true)
check "the archive's top directory is idcodec-$version" "$top" "idcodec-$version"
# (one test for all the files: those missing are its diagnostics)
missing=""
for file in META.json idcodec.control idcodec_pg_hashids.control idcodec--*.sql idcodec_pg_hashids--*.sql; do
    for wanted in $file; do
        [ -f "$work/unpacked/$top/$wanted" ] || missing+="$wanted "
    done
done
check "the archive holds META.json, the control files and every extension script of the root" "${missing:+lacks $missing}" ""
complete=$(cd "$work/unpacked/$top" && LC_ALL=C ls -- *.sql | grep -v -- '--.*--' | paste -sd' ' || true)
hashids_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$work/unpacked/$top/idcodec_pg_hashids.control" || true)
check "the archive's top directory holds one complete install script per extension, of its current version" \
    "$complete" "idcodec--$version.sql idcodec_pg_hashids--$hashids_version.sql"
if make -s -C "$work/unpacked/$top" -j"$(nproc)" PG_CONFIG="$PG_BIN/pg_config" >"$work/build.log" 2>&1; then
    tap_ok "idcodec builds from the unpacked archive"
else
    tap_not_ok "idcodec builds from the unpacked archive" "$(tail -n 30 "$work/build.log")"
fi
if make -s -C "$work/unpacked/$top" install DESTDIR="$work/root" PG_CONFIG="$PG_BIN/pg_config" >"$work/install.log" 2>&1; then
    tap_ok "make install from the unpacked archive succeeds"
else
    tap_not_ok "make install from the unpacked archive succeeds" "$(tail -n 30 "$work/install.log")"
fi
libdir=$("$PG_BIN/pg_config" --pkglibdir)
extdir=$("$PG_BIN/pg_config" --sharedir)/extension
for file in "$libdir/idcodec.so" "$extdir/idcodec.control" "$extdir/idcodec--$version.sql" "$extdir/idcodec_pg_hashids.control"; do
    if [ -f "$work/root$file" ]; then
        tap_ok "make install from the archive installs $file"
    else
        tap_not_ok "make install from the archive installs $file"
    fi
done
installed=$(LC_ALL=C ls "$work/root$extdir" 2>/dev/null | paste -sd' ' || true)
shipped=$(cd "$work/unpacked/$top" && LC_ALL=C ls -- *.control *.sql | LC_ALL=C sort | paste -sd' ' || true)
check "make install from the archive installs exactly the archive's control files and scripts" "$installed" "$shipped"
tap_diag "dist: $archive ($(python3 -c "import zipfile,sys; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))" "$archive") entries," \
     "$(($(stat -c %s "$archive") / 1024)) kB) unpacks into $top, builds and installs its $(wc -w <<<"$installed") extension" \
     "files (one complete install script per extension)"
tap_done
