#!/usr/bin/env bash
# The README's installation, followed as a user follows it: in a fresh clone of the repository, the commands of its
# "Debian and Ubuntu, from source" block (the clone made from this checkout instead of the network; sudo dropped,
# as root) into the system's PostgreSQL 15, then its PG_CONFIG form into the newest stock major of the cache; on a
# cluster of each, CREATE EXTENSION and every example of the README (one per family), compared with the results it
# shows. What the system's PostgreSQL had of idcodec before (a `make install`, a package) is put back at the end.
# TAP: the README's block is there, its commands run and install idcodec, and the examples give what it shows, for
# each of the two installations (the second skipped when that major cannot be built).
source "$(dirname "$0")/../lib/suite.sh"
ROOT=$IDCODEC_ROOT
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
if grep -q '^make$' <<<"$block" && grep -q '^sudo make install$' <<<"$block"; then
    tap_ok "README.md's from-source block has its make and sudo make install lines"
else
    tap_not_ok "README.md's from-source block has its make and sudo make install lines" "$block"
fi
# run_readme DIRECTORY LINES: each line as a user types it, in DIRECTORY/idcodec once cloned: the clone is made from
# this checkout, apt-get is answered yes, and sudo is not needed as root. Returns 1 at the first line that fails,
# which it leaves in $failed_line.
# A user's PATH, none of the run's own programs on it; the compilers through ccache when the run has it (as a user who
# installed Debian's ccache may): the same commands, their objects from the cache of the run's other builds.
user_path=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
[[ :$PATH: == *:/usr/lib/ccache:* ]] && user_path=/usr/lib/ccache:$user_path
run_readme() {
    local line
    failed_line=""
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        line=${line#sudo }
        case $line in
            # outside a git checkout (the PGXN archive unpacked) there is nothing to clone: the sources are copied
            "git clone "*) if is_git_checkout "$ROOT"; then git clone -q "$ROOT" "$1/idcodec" >>"$work/build.log" 2>&1
                           else copy_sources "$ROOT" "$1/idcodec" >>"$work/build.log" 2>&1; fi ||
                               { failed_line=$line; return 1; } ;;
            "apt-get install "*) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${line#apt-get install } >>"$work/build.log" 2>&1 ||
                                     { failed_line=$line; return 1; } ;;
            *) (cd "$1/idcodec" && env PATH="$user_path" bash -c "$line") >>"$work/build.log" 2>&1 ||
                   { failed_line=$line; return 1; } ;;
        esac
    done <<<"$2"
}
# readme_test DESCRIPTION LINES: the lines run (run_readme in $work/user), one test; the suite ends when they fail
readme_test() {
    local start=$SECONDS
    if run_readme "$work/user" "$2"; then
        tap_ok "$1 ($((SECONDS - start)) s)"
    else
        tap_not_ok "$1" "$(tail -n 30 "$work/build.log"; echo "failed: $failed_line")"
        tap_done
        exit 1
    fi
}
mkdir "$work/user"
readme_test "the README's commands run as a user types them, into the system's PostgreSQL 15" "$block"
if [ -f "$libdir/idcodec.so" ] && [ -f "$extdir/idcodec.control" ]; then
    tap_ok "they build and install idcodec into the system's PostgreSQL 15"
else
    tap_not_ok "they build and install idcodec into the system's PostgreSQL 15" "make install put nothing into PostgreSQL 15"
    tap_done
    exit 1
fi

# examples_test PG_BIN LABEL: the README's examples on a cluster of that installation, one test
examples_test() {
    local port out status=0
    port=$(free_port)
    PG_BIN=$1 cluster_start "install-$2" "$port" >&2
    out=$(PGHOST=localhost PGPORT=$port PGUSER=postgres PGDATABASE=postgres \
          python3 test/docs_check.py --examples README.md 2>&1) || status=$?
    if [ $status = 0 ]; then
        tap_ok "PostgreSQL $2: CREATE EXTENSION and the README's examples give what it shows ($(tail -n 1 <<<"$out"))"
    else
        tap_not_ok "PostgreSQL $2: CREATE EXTENSION and the README's examples give what it shows" "$(tail -n 40 <<<"$out")"
    fi
}
examples_test /usr/lib/postgresql/15/bin 15

# The PG_CONFIG form, into a stock major built from source.
release=${POSTGRES_RELEASES[-1]}
prefix=$(postgres_prefix "$release")
postgres_build "$release" >/dev/null 2>&1 || true   # once, into the cache (test/major.sh uses it too)
if [ -x "$prefix/bin/pg_config" ]; then
    readme_test "the README's PG_CONFIG form runs, into PostgreSQL $release" \
        "$(sh_block 2 | sed -E "s#PG_CONFIG=[^ ]+#PG_CONFIG=$prefix/bin/pg_config#g")"
    examples_test "$prefix/bin" "$release"
else
    tap_skip "the README's PG_CONFIG form: PostgreSQL $release could not be built (its source is not beside the checkout)" 2
fi
tap_done
