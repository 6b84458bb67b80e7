# Sourced: builds stock PostgreSQL majors from their release tarballs, once, into a cache outside the checkout, as
# `cargo pgrx init` does, and builds idcodec against them. Needs find_peer, log, as_root and apt_install
# (scripts/setup.sh).
#
#   postgres_prefix VERSION          where VERSION is (or will be) installed
#   postgres_build VERSION           builds and installs it unless the cache holds it already (the newest major with
#                                    --enable-cassert). Returns 77 (with the reason on stderr) when
#                                    the tarball is not there, 1 when the build fails.
#
#   postgres_require VERSION         postgres_build for a script that reports steps: when it cannot be had, the
#                                    script ends with "SKIPPED: <reason>" (exit 77) or "FAILED: ..." (exit 1)
#   idcodec_copy_sources DEST        the sources and suites copied to DEST, for a build outside the checkout
#   idcodec_build_for PG_CONFIG DEST idcodec built in such a copy with -Werror and installed into that PostgreSQL (once
#                                    for the same sources and PostgreSQL)
#
# IDCODEC_CACHE (scripts/setup.sh) is the cache.
source "$(dirname "${BASH_SOURCE[0]}")/lock.sh"
POSTGRES_BUILD_PACKAGES=(bison flex zlib1g-dev make gcc libipc-run-perl)
# The stock releases the suites run on besides Debian's 15; the newest runs with the server's own assertions.
POSTGRES_RELEASES=(16.13 17.6 18.6)
POSTGRES_ASSERT_RELEASE=18.6
# The source of the major-upgrade tests: a stock 15 (Debian's newer 15 minors record a column option that the
# stock newer majors do not know, so pg_upgrade from them fails for any database).
POSTGRES_UPGRADE_SOURCE=15.18

postgres_prefix() {
    echo "$IDCODEC_CACHE/postgresql-$1"
}

postgres_build() {
    with_lock "postgresql-$1" postgres_build_alone "$1"
}

# postgres_build_alone VERSION: postgres_build while no other run builds that release
postgres_build_alone() {
    local version=$1 tarball prefix stamp options build status
    tarball=$(find_peer "postgresql-$version.tar.gz")
    if [ -z "$tarball" ]; then
        echo "the PostgreSQL $version source (postgresql-$version.tar.gz) is not in \$IDCODEC_PEERS nor beside the checkout" >&2
        return 77
    fi
    prefix=$(postgres_prefix "$version")
    # -O1 and no debugging information: two thirds of -O2's compile time and less than half of -O2 -g's, for servers
    # that only run the suites (an assertion failure names its file and line without debugging information)
    options=(--prefix="$prefix" --without-icu --without-readline --enable-tap-tests CFLAGS=-O1)
    [ "$version" = "$POSTGRES_ASSERT_RELEASE" ] && options+=(--enable-cassert)
    # the stamp names the source and the options: a cached build of other sources or options is built again
    stamp="$(sha256sum <"$tarball" | cut -c1-64) ${options[*]}"
    [ "$(cat "$prefix/.built-from" 2>/dev/null)" = "$stamp" ] && return 0
    local missing=() package
    for package in "${POSTGRES_BUILD_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_install "${missing[@]}"
    fi
    log "building PostgreSQL $version into $prefix (once; a few minutes)"
    mkdir -p "$IDCODEC_CACHE"
    chmod 755 "$IDCODEC_CACHE"
    # what an interrupted build of this release left
    rm -rf "$IDCODEC_CACHE/build-$version".*
    build=$(mktemp -d "$IDCODEC_CACHE/build-$version.XXXXXX")
    rm -rf "$prefix"
    (
        set -e
        tar -C "$build" -xzf "$tarball"
        cd "$build/postgresql-$version"
        ./configure "${options[@]}" >"$build/configure.log" 2>&1
        make -s -j"$(nproc)" >"$build/make.log" 2>&1
        make -s install >>"$build/make.log" 2>&1
        # amcheck checks the indexes after a major upgrade
        make -s -C contrib/amcheck install >>"$build/make.log" 2>&1
    )
    status=$?
    if [ $status -ne 0 ]; then
        log "building PostgreSQL $version failed; the last lines of its log:"
        tail -n 30 "$build"/make.log "$build"/configure.log >&2 2>/dev/null
        rm -rf "$build" "$prefix"
        return 1
    fi
    rm -rf "$build"
    chmod -R a+rX "$prefix"
    echo "$stamp" >"$prefix/.built-from"
}

postgres_require() {
    local reason
    reason=$(postgres_build "$1" 2>&1 >/dev/null)
    case $? in
        0) ;;
        77) echo "SKIPPED: $reason"; exit 77 ;;
        *) echo "FAILED: PostgreSQL $1 builds from source"; tail -n 30 <<<"$reason" | sed 's/^/    /'; exit 1 ;;
    esac
}

# idcodec_sources: what building idcodec and running its pg_regress suites need, as a tar stream on stdout (build
# products left out; times and owners fixed, so the same sources give the same bytes)
idcodec_sources() {
    (cd "$IDCODEC_ROOT" && tar --exclude='*.o' --exclude='*.d' --exclude='*.so' --sort=name --mtime=@0 --owner=0 \
        --group=0 --numeric-owner -cf - Makefile ./*.control ./*--*.sql src sql expected examples test/regress \
        test/releases test/vectors test/data test/sanitizer/control.cpp)
}

# idcodec_copy_sources DEST: those sources copied to DEST, so a build for another major or with sanitizers leaves the
# checkout's own objects alone. DEST's own objects from an earlier build stay: make rebuilds what changed since.
idcodec_copy_sources() {
    mkdir -p "$1"
    find "$1" -type f ! -name '*.o' ! -name '*.d' ! -name '*.so' -delete
    idcodec_sources | tar -C "$1" -xf -
}

# idcodec_build_for PG_CONFIG DEST: idcodec built in a copy of the sources in DEST against that PostgreSQL, warnings
# as errors, and installed into it with the earlier releases' complete install scripts (test/releases/), as a test
# installation needs them. Done once for the same sources and PostgreSQL: the jobs of a run that share a major (its
# suites, the upgrades) call it under one lock, and the first builds; a later call leaves DEST and the installation
# as they are, as another job may be running pg_regress from DEST.
idcodec_build_for() {
    local pg_config=$1 dest=$2 stamp
    stamp=$({ idcodec_sources; "$pg_config" --version; } | sha256sum | cut -c1-16)
    if [ -f "$dest/.built-$stamp" ] && cmp -s "$dest/idcodec.so" "$("$pg_config" --pkglibdir)/idcodec.so"; then
        return 0
    fi
    rm -f "$dest"/.built-*
    idcodec_copy_sources "$dest"
    make -C "$dest" -s -j"$(nproc)" PG_CONFIG="$pg_config" WERROR=1 >"$dest/build.log" 2>&1 &&
        make -C "$dest" -s PG_CONFIG="$pg_config" WITH_RELEASE_FIXTURES=1 install >>"$dest/build.log" 2>&1 &&
        touch "$dest/.built-$stamp"
}
