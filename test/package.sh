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
# TAP: one test per check above (the installcheck one per pg_regress file, test/regress/run.sh), and a summary as
# a diagnostic. A failure that leaves nothing to test further (no package built, none unpacked) ends the suite.
source "$(dirname "$0")/lib/suite.sh"
ROOT=$IDCODEC_ROOT
PG_MAJOR=15
# The system's PostgreSQL, where the package installs (not the test command's temporary installation).
export PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config
# shellcheck source=lib/cluster.sh
source "$ROOT/test/lib/cluster.sh"
PACKAGE=postgresql-$PG_MAJOR-idcodec

log() { printf '== %s\n' "$*" >&2; }
# stop DESCRIPTION [DETAIL]: a failed test after which nothing more can be tested: the plan, and the end
stop() {
    tap_not_ok "$1" "${2:-}"
    tap_done
    exit 1
}

[ "$(id -u)" = 0 ] || stop "runs as root (it installs build dependencies and the package)"

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
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
    apt-get build-dep -y -qq --no-install-recommends "$BUILD_SRC" >/dev/null
fi
if out=$(cd "$BUILD_SRC" && dpkg-checkbuilddeps 2>&1); then
    tap_ok "the build dependencies of debian/control are installed"
else
    stop "the build dependencies of debian/control are installed" "$out"
fi

# ---- versions: debian/changelog's upstream version must be the extension's default_version
deb_version=$(cd "$BUILD_SRC" && dpkg-parsechangelog -S Version)
upstream_version=${deb_version#*:}          # no epoch
upstream_version=${upstream_version%-*}     # no Debian revision
default_version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$BUILD_SRC/idcodec.control")
[ -n "$default_version" ] || stop "idcodec.control has a default_version"
check "debian/changelog's upstream version ($deb_version) is idcodec.control's default_version" \
    "$upstream_version" "$default_version"
expected_deb=${PACKAGE}_${deb_version#*:}_$(dpkg --print-architecture).deb

# ---- build
# With the locale variables unset, as a fresh Debian system or container has them: the build must not depend on them.
log "make deb (pg_buildext updatecontrol, dpkg-buildpackage -us -uc -b), no locale set (log: $WORK/build/build.log)"
start=$SECONDS
if ! (cd "$BUILD_SRC" && env -u LANG -u LANGUAGE -u LC_ALL -u LC_CTYPE -u LC_COLLATE -u LC_MESSAGES \
        make deb) >"$WORK/build/build.log" 2>&1; then
    stop "make deb builds the package (dpkg-buildpackage), no locale set" "$(tail -n 80 "$WORK/build/build.log")"
fi
build_seconds=$((SECONDS - start))
tap_ok "make deb builds the package (dpkg-buildpackage), no locale set, in a directory the postgres user cannot read ($build_seconds s)"

# ---- the .deb: name and contents
debs=()
for file in "$WORK"/build/*.deb; do
    case $file in *-dbgsym_*) ;; *) if [ -e "$file" ]; then debs+=("$(basename "$file")"); fi ;; esac
done
check "dpkg-buildpackage makes one package" "${#debs[@]}" 1
[ "${#debs[@]}" -ge 1 ] || stop "the package is there to test" "dpkg-buildpackage made: none"
check "the package is named $expected_deb" "${debs[*]}" "$expected_deb"
[ -e "$WORK/build/$expected_deb" ] || stop "$expected_deb is there to test"
DEB=$WORK/build/$expected_deb
contents=$(dpkg-deb -c "$DEB" | awk '{ print $NF }' | sed 's|^\./|/|')
libdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension
expected_files=("$libdir/idcodec.so")
for file in "$BUILD_SRC"/*.control "$BUILD_SRC"/*--*.sql; do
    if [ -e "$file" ]; then expected_files+=("$extdir/$(basename "$file")"); fi
done
# (one test for the files: those it lacks are the diagnostics)
lacking=""
for file in "${expected_files[@]}"; do
    grep -qxF "$file" <<<"$contents" || lacking+="$file "
done
check "$expected_deb holds idcodec.so and every *.control and *--*.sql of the sources (${#expected_files[@]} files)" \
    "${lacking:+lacks $lacking}" ""
extra=$(grep -E "^$extdir/[^/]+$" <<<"$contents" | grep -vxF -f <(printf '%s\n' "${expected_files[@]}") || true)
check "$expected_deb ships nothing else in the extension directory (one complete install script per extension)" \
    "$extra" ""
check "$expected_deb ships no LLVM bitcode (the Makefile sets with_llvm = no)" \
    "$(grep '/bitcode/' <<<"$contents" | head -n 5)" ""

# ---- unpack into a copy of the system's installation, then run the regression suite from sources where nothing
# was built. (A copy: the system's own PostgreSQL directories may hold an idcodec of the user's.)
INSTALL=$WORK/installation
copy_system_installation "$INSTALL"
log "dpkg -x $expected_deb into a copy of the system's installation"
if out=$(dpkg -x "$DEB" "$INSTALL" 2>&1); then
    tap_ok "dpkg -x unpacks $expected_deb into a copy of the system's installation"
else
    stop "dpkg -x unpacks $expected_deb into a copy of the system's installation" "$out"
fi
chmod -R a+rX "$INSTALL"
export PG_BIN=$INSTALL/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config

CHECK_SRC=$WORK/check/idcodec
copy_sources "$ROOT" "$CHECK_SRC"
built=$(find "$CHECK_SRC" \( -name '*.o' -o -name '*.so' -o -name '*.bc' \) -print -quit)
check "the test copy of the sources holds no build product" "$built" ""
port=$(free_port)
cluster_start package "$port" >&2
# The package offers the current version alone: every earlier release is refused, to every role.
releases=$(cd "$CHECK_SRC" && source test/lib/versions.sh && idcodec_releases)
available=$(cluster_psql "$port" -c "SELECT string_agg(version, ' ' ORDER BY version)
                                     FROM pg_available_extension_versions WHERE name = 'idcodec'")
check "$expected_deb offers idcodec $default_version alone" "$available" "$default_version"
refused=$(for release in $releases; do echo "CREATE EXTENSION idcodec VERSION '$release';"; done |
    cluster_psql "$port" -v ON_ERROR_STOP=0 2>&1 | grep -c 'has no installation script nor update path for version' || true)
check "$expected_deb installs no earlier release: each of the $(wc -w <<<"$releases") refused" \
    "$refused refused" "$(wc -w <<<"$releases") refused"
# The upgrade suite installs each earlier release from its complete install script: test installations have them
# (make install WITH_RELEASE_FIXTURES=1), the package does not, so they are added to this copy of the installation.
cp "$CHECK_SRC"/test/releases/*.sql "$INSTALL$extdir/"
chmod a+r "$INSTALL$extdir"/*.sql
log "make installcheck against the installed package (with the earlier releases' install scripts added)"
# pg_regress from the never-built copy, one test per file (test/regress/run.sh, on this cluster). (tap_include runs
# it as a plain command: under set -e, a run that fails would end this suite there.)
PGHOST=localhost PGPORT=$port PGUSER=postgres PGDATABASE=postgres \
    tap_include "installcheck against $expected_deb" bash "$ROOT/test/regress/run.sh" "$CHECK_SRC" || true

tap_diag "package.sh: $expected_deb built in ${build_seconds}s in a directory the postgres user cannot read" \
     "(${#expected_files[@]} extension files checked; only $default_version installable, the" \
     "$(wc -w <<<"$releases") earlier releases refused); the system's PostgreSQL untouched"
tap_done
