#!/usr/bin/env bash
# The README's installation, followed as a user follows it: in a fresh clone of the repository, the commands of its
# "Debian and Ubuntu, from source" block (the clone made from this checkout instead of the network; sudo dropped,
# as root) into the system's PostgreSQL 15, then its PG_CONFIG form into the newest stock major of the cache; on a
# cluster of each, CREATE EXTENSION and every example of the README (one per family), compared with the results it
# shows. What the system's PostgreSQL had of idcodec before (a `make install`, a package) is put back at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source test/lib/cluster.sh
source test/lib/postgres_build.sh
source test/lib/sources.sh
work=$(mktemp -d)
chmod 755 "$work"
system_pg_config=/usr/lib/postgresql/15/bin/pg_config
libdir=$("$system_pg_config" --pkglibdir)
extdir=$("$system_pg_config" --sharedir)/extension
mkdir "$work/saved"
cp -a "$libdir"/idcodec* "$extdir"/idcodec* "$work/saved/" 2>/dev/null || true
restore() {
    rm -f "$libdir"/idcodec* "$extdir"/idcodec*
    for file in "$work"/saved/*; do
        [ -e "$file" ] || continue
        case $(basename "$file") in *.so) cp -a "$file" "$libdir/" ;; *) cp -a "$file" "$extdir/" ;; esac
    done
    rm -rf "$work"
}
trap 'restore; cluster_stop_all' EXIT

# The README's block, as lines to run.
# sh_block N: the Nth ```sh block of the README's "Debian and Ubuntu, from source" section, without its fences
sh_block() {
    sed -n '/^### Debian and Ubuntu, from source/,/^### [^D]/p' README.md |
        awk -v wanted="$1" '/^```sh$/ { n++; inside = (n == wanted); next } /^```$/ { inside = 0 } inside'
}
block=$(sh_block 1)
grep -q '^make$' <<<"$block" && grep -q '^sudo make install$' <<<"$block" ||
    { echo "README.md: the from-source block lost its make / sudo make install lines"; exit 1; }
# run_readme DIRECTORY LINES: each line as a user types it, in DIRECTORY/idcodec once cloned: the clone is made from
# this checkout, apt-get is answered yes, and sudo is not needed as root.
run_readme() {
    local line
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        line=${line#sudo }
        case $line in
            # outside a git checkout (the PGXN archive unpacked) there is nothing to clone: the sources are copied
            "git clone "*) if is_git_checkout "$ROOT"; then git clone -q "$ROOT" "$1/idcodec"
                           else copy_sources "$ROOT" "$1/idcodec"; fi ;;
            "apt-get install "*) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${line#apt-get install } >>"$work/build.log" 2>&1 ;;
            *) (cd "$1/idcodec" && env PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin bash -c "$line") >>"$work/build.log" 2>&1 ||
                   { tail -n 30 "$work/build.log"; echo "FAILED: $line"; exit 1; } ;;
        esac
    done <<<"$2"
}
mkdir "$work/user"
start=$SECONDS
run_readme "$work/user" "$block"
[ -f "$libdir/idcodec.so" ] && [ -f "$extdir/idcodec.control" ] || { echo "make install put nothing into PostgreSQL 15"; exit 1; }
echo "ok: the README's commands build and install idcodec into the system's PostgreSQL 15 ($((SECONDS - start)) s)"

examples() {  # examples PG_BIN LABEL: the README's examples on a cluster of that installation
    local port
    port=$(free_port)
    PG_BIN=$1 cluster_start "install-$2" "$port" >/dev/null
    PGHOST=localhost PGPORT=$port PGUSER=postgres PGDATABASE=postgres python3 test/docs_check.py --examples README.md
}
echo "ok: PostgreSQL 15: $(examples /usr/lib/postgresql/15/bin 15 | tail -n 1)"

# The PG_CONFIG form, into a stock major built from source.
release=${POSTGRES_RELEASES[-1]}
prefix=$(postgres_prefix "$release")
postgres_build "$release" >/dev/null 2>&1 || true   # once, into the cache (test/major.sh uses it too)
if [ -x "$prefix/bin/pg_config" ]; then
    run_readme "$work/user" "$(sh_block 2 | sed -E "s#PG_CONFIG=[^ ]+#PG_CONFIG=$prefix/bin/pg_config#g")"
    echo "ok: PostgreSQL $release: $(examples "$prefix/bin" "$release" | tail -n 1)"
else
    echo "SKIPPED: the README's PG_CONFIG form: PostgreSQL $release could not be built (its source is not beside the checkout)"
fi
