#!/usr/bin/env bash
# Debian package test, as root on Debian 12 with PostgreSQL 15:
#   1. installs the build dependencies of debian/control if any are missing;
#   2. builds the package with `dpkg-buildpackage -us -uc -b` in a copy of the sources (the files git tracks, plus
#      untracked files git does not ignore, so uncommitted work is tested too; never build products; outside a git
#      checkout, every file .gitignore does not name), in a
#      directory the postgres user cannot read, as a checkout under /root is;
#   3. checks the .deb is named postgresql-15-idcodec_<debian/changelog version>_<arch>.deb, that the changelog's
#      upstream version is idcodec.control's default_version, and that it holds idcodec.so and every *.control and
#      *--*.sql of the sources (so a new extension the Makefile forgets to install is caught) and nothing else in
#      the extension directory: one complete install script per extension, none of the earlier releases' (the test
#      fixtures of test/releases/);
#   4. unpacks it (dpkg -x) into a copy of the system's PostgreSQL installation, so that whatever the system has
#      installed (a `make install`, an earlier package) stays as it is; on a throwaway cluster of that installation,
#      checks that the package offers the current version of idcodec alone (no earlier release can be installed
#      from it, by any role); then adds the earlier releases' complete install scripts to that copy, as every test
#      installation has them (the upgrade suite installs each release and updates it), and runs `make installcheck`
#      from a second, never-built copy of the sources against the cluster.
# DEB_BUILD_OPTIONS=nocheck skips the regression run inside the package build (dh_pgxs_test); step 4 always runs.
# Ends with one summary line.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# copy_system_installation (setup.sh's PostgreSQL 15 is this test's); what follows sets this test's own PG_BIN
source "$ROOT/scripts/setup.sh"
PG_MAJOR=15
# The system's PostgreSQL, where the package installs (not the test command's temporary installation).
export PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config
# shellcheck source=lib/cluster.sh
source "$ROOT/test/lib/cluster.sh"
PACKAGE=postgresql-$PG_MAJOR-idcodec

log() { printf '== %s\n' "$*" >&2; }
fail() {
    printf 'package.sh: FAILED: %s\n' "$*" >&2
    exit 1
}

[ "$(id -u)" = 0 ] || fail "must run as root (it installs build dependencies and the package)"

WORK=$(mktemp -d -t idcodec-package.XXXXXX)
# The installation the package is tested in is read by the server as the postgres user.
chmod 755 "$WORK"
cleanup() {
    local status=$?
    set +e
    cluster_stop_all
    rm -rf "$WORK"
    exit $status
}
trap cleanup EXIT

# copy_sources SRC DEST: the sources without build products, also outside a git checkout
source "$ROOT/test/lib/sources.sh"

# ---- build dependencies
# The build happens where the postgres user cannot look, as in a checkout under /root (the build-time regression
# run's server is started as that user).
mkdir -m 700 "$WORK/build"
BUILD_SRC=$WORK/build/idcodec
copy_sources "$ROOT" "$BUILD_SRC"
if ! command -v dpkg-checkbuilddeps >/dev/null || ! (cd "$BUILD_SRC" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
    log "installing build dependencies"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
    apt-get build-dep -y -qq --no-install-recommends "$BUILD_SRC" >/dev/null
    (cd "$BUILD_SRC" && dpkg-checkbuilddeps) || fail "build dependencies still missing after apt-get build-dep"
fi

# ---- versions: debian/changelog's upstream version must be the extension's default_version
deb_version=$(cd "$BUILD_SRC" && dpkg-parsechangelog -S Version)
upstream_version=${deb_version#*:}          # no epoch
upstream_version=${upstream_version%-*}     # no Debian revision
default_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$BUILD_SRC/idcodec.control")
[ -n "$default_version" ] || fail "no default_version in idcodec.control"
[ "$upstream_version" = "$default_version" ] ||
    fail "debian/changelog is at $deb_version but idcodec.control's default_version is $default_version"
expected_deb=${PACKAGE}_${deb_version#*:}_$(dpkg --print-architecture).deb

# ---- build
# With the locale variables unset, as a fresh Debian system or container has them: the build must not depend on them.
log "make deb (pg_buildext updatecontrol, dpkg-buildpackage -us -uc -b), no locale set (log: $WORK/build/build.log)"
start=$SECONDS
if ! (cd "$BUILD_SRC" && env -u LANG -u LANGUAGE -u LC_ALL -u LC_CTYPE -u LC_COLLATE -u LC_MESSAGES \
        make deb) >"$WORK/build/build.log" 2>&1; then
    tail -n 80 "$WORK/build/build.log" >&2
    fail "dpkg-buildpackage failed"
fi
build_seconds=$((SECONDS - start))

# ---- the .deb: name and contents
debs=()
for file in "$WORK"/build/*.deb; do
    case $file in *-dbgsym_*) ;; *) if [ -e "$file" ]; then debs+=("$(basename "$file")"); fi ;; esac
done
[ "${#debs[@]}" = 1 ] || fail "expected one package, dpkg-buildpackage made: ${debs[*]:-none}"
[ "${debs[0]}" = "$expected_deb" ] || fail "package is ${debs[0]}, expected $expected_deb"
DEB=$WORK/build/$expected_deb
contents=$(dpkg-deb -c "$DEB" | awk '{ print $NF }' | sed 's|^\./|/|')
libdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension
expected_files=("$libdir/idcodec.so")
for file in "$BUILD_SRC"/*.control "$BUILD_SRC"/*--*.sql; do
    if [ -e "$file" ]; then expected_files+=("$extdir/$(basename "$file")"); fi
done
for file in "${expected_files[@]}"; do
    grep -qxF "$file" <<<"$contents" || fail "$expected_deb lacks $file"
done
extra=$(grep -E "^$extdir/[^/]+$" <<<"$contents" | grep -vxF -f <(printf '%s\n' "${expected_files[@]}") || true)
[ -z "$extra" ] || fail "$expected_deb ships files that are not the sources' control files and scripts:" $extra
if grep -q '/bitcode/' <<<"$contents"; then fail "$expected_deb ships LLVM bitcode (the Makefile sets with_llvm = no)"; fi

# ---- unpack into a copy of the system's installation, then run the regression suite from sources where nothing
# was built. (A copy: the system's own PostgreSQL directories may hold an idcodec of the user's.)
INSTALL=$WORK/installation
copy_system_installation "$INSTALL"
log "dpkg -x $expected_deb into a copy of the system's installation"
dpkg -x "$DEB" "$INSTALL" || fail "dpkg -x $expected_deb failed"
chmod -R a+rX "$INSTALL"
export PG_BIN=$INSTALL/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config

CHECK_SRC=$WORK/check/idcodec
copy_sources "$ROOT" "$CHECK_SRC"
built=$(find "$CHECK_SRC" \( -name '*.o' -o -name '*.so' -o -name '*.bc' \) -print -quit)
[ -z "$built" ] || fail "the test copy holds a build product: $built"
port=$(free_port)
cluster_start package "$port"
# The package offers the current version alone: every earlier release is refused, to every role.
releases=$(cd "$CHECK_SRC" && source test/lib/versions.sh && idcodec_releases)
available=$(cluster_psql "$port" -c "SELECT string_agg(version, ' ' ORDER BY version)
                                     FROM pg_available_extension_versions WHERE name = 'idcodec'")
[ "$available" = "$default_version" ] || fail "$expected_deb offers the versions $available of idcodec, not $default_version alone"
refused=$(for release in $releases; do echo "CREATE EXTENSION idcodec VERSION '$release';"; done |
    cluster_psql "$port" -v ON_ERROR_STOP=0 2>&1 | grep -c 'has no installation script nor update path for version' || true)
[ "$refused" = "$(wc -w <<<"$releases")" ] ||
    fail "$expected_deb installs an earlier release: $refused of the $(wc -w <<<"$releases") releases refused"
# The upgrade suite installs each earlier release from its complete install script: test installations have them
# (make install WITH_RELEASE_FIXTURES=1), the package does not, so they are added to this copy of the installation.
cp "$CHECK_SRC"/test/releases/*.sql "$INSTALL$extdir/"
chmod a+r "$INSTALL$extdir"/*.sql
log "make installcheck against the installed package (with the earlier releases' install scripts added)"
set +e
(cd "$CHECK_SRC" && PGHOST=localhost PGPORT=$port PGUSER=postgres make installcheck PG_CONFIG="$PG_CONFIG") >"$WORK/check/installcheck.log" 2>&1
check_status=$?
set -e
summary=$(grep -E '^ *(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests (failed|passed))' "$WORK/check/installcheck.log" |
    sed 's/^ *//; s/\.* *$//' | head -n 1)
if [ $check_status -ne 0 ] || ! grep -q '^All [0-9]* tests passed' <<<"$summary"; then
    grep -F 'FAILED' "$WORK/check/installcheck.log" >&2 || true
    if [ -f "$CHECK_SRC/regression.diffs" ]; then head -n 100 "$CHECK_SRC/regression.diffs" >&2; fi
    tail -n 20 "$WORK/check/installcheck.log" >&2
    fail "make installcheck against $expected_deb: ${summary:-exit status $check_status}"
fi

echo "package.sh: $expected_deb built in ${build_seconds}s in a directory the postgres user cannot read" \
     "(${#expected_files[@]} extension files checked, nothing else shipped; only $default_version installable, the" \
     "$(wc -w <<<"$releases") earlier releases refused); installcheck against it: $summary; the system's PostgreSQL untouched"
