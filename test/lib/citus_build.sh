# Builds Citus from the peer source archive for the PostgreSQL of $PG_BIN, once per machine (the build is kept in the
# cache outside the checkout, $IDCODEC_CACHE, like the PostgreSQL majors), and installs it there. Sourced by the
# Citus suites; needs find_peer (scripts/setup.sh).
#
#   citus_release                 the Citus release for that major: 13.2.2 on 15 (the last line supporting 15), 14.0.1
#                                 on 16, 17 and 18
#   citus_require                 installs that release, or ends the calling suite: "SKIPPED: <reason>" and exit 77
#                                 when its source is not beside the checkout, exit 1 when the build fails
#
# Build dependencies come from Debian (apt-get, as root).
source "$(dirname "${BASH_SOURCE[0]}")/lock.sh"
CITUS_BUILD_PACKAGES=(libzstd-dev liblz4-dev libcurl4-openssl-dev libkrb5-dev libssl-dev libselinux1-dev libpam0g-dev
                      libxslt1-dev libreadline-dev)

citus_pg_config() {
    echo "${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config"
}

citus_release() {
    local major
    major=$("$(citus_pg_config)" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
    if [ "$major" -le 15 ]; then echo 13.2.2; else echo 14.0.1; fi
}

# The patch a release needs, in the peers beside the checkout. Citus 13.2.2 defines its own
# have_createdb_privilege() for PostgreSQL < 16, which 15.14 and later export too. 14.0.1 builds unchanged against
# 16.13, 17.6 and 18.6.
citus_patch_name() {
    [ "$1" = 13.2.2 ] && echo citus-13.2.2-pg15.18.patch
    return 0
}

# citus_build ARCHIVE PATCH STAGE: configure, build and install into STAGE (DESTDIR), keeping only the library and
# extension files, relative to the installation (lib/, share/), so any copy of the same PostgreSQL can take them.
citus_build() {
    local archive=$1 patch=$2 stage=$3 pg_config work source status=0
    pg_config=$(citus_pg_config)
    work=$(mktemp -d "${TMPDIR:-/tmp}/idcodec-citus-build.XXXXXX")
    tar -xzf "$archive" -C "$work"
    source=$(find "$work" -path '*/src/backend/distributed/citus.control' | head -n 1)
    source=${source%/src/backend/distributed/citus.control}
    if [ -z "$source" ] || [ ! -d "$source" ]; then echo "no Citus source in $archive"; rm -rf "$work"; return 1; fi
    if [ -n "$patch" ] && ! (cd "$source" && patch -s -p1 <"$patch"); then rm -rf "$work"; return 1; fi
    # (an if, so a caller's set -e cannot leave the build directory behind)
    if (cd "$source" && ./configure PG_CONFIG="$pg_config" --without-libcurl >"$work/build.log" 2>&1 &&
        make -s -j"$(nproc)" >>"$work/build.log" 2>&1 && make -s install DESTDIR="$work/root" >>"$work/build.log" 2>&1); then
        rm -rf "$stage"
        mkdir -p "$stage"
        cp -a "$work/root$("$pg_config" --pkglibdir)" "$stage/lib"
        cp -a "$work/root$("$pg_config" --sharedir)" "$stage/share"
    else
        status=1
        echo "building Citus failed:"; tail -n 30 "$work/build.log"
    fi
    rm -rf "$work"
    return $status
}

# citus_copy FROM TO: the files of FROM that TO lacks or has otherwise, each as a new file (a server running Citus
# keeps the library it mapped: writing into that file instead would crash it).
citus_copy() {
    local file
    (cd "$1" && find . -type f) | while IFS= read -r file; do
        cmp -s "$1/$file" "$2/$file" && continue
        mkdir -p "$(dirname "$2/$file")"
        cp -p --remove-destination "$1/$file" "$2/$file"
    done
}

citus_require() {
    with_lock "citus-$(citus_pg_config)" citus_require_alone
}

# citus_require_alone: citus_require while no other suite builds or installs Citus for that PostgreSQL
citus_require_alone() {
    local release archive patch="" pg_config stamp stage missing=() package
    release=$(citus_release)
    archive=$(find_peer "citus-$release.tar.gz")
    if [ -z "$archive" ]; then
        echo "SKIPPED: Citus $release (citus-$release.tar.gz, the Citus for PostgreSQL $("$(citus_pg_config)" --version | cut -d' ' -f2)) is not beside the checkout"
        exit 77
    fi
    if [ -n "$(citus_patch_name "$release")" ]; then
        patch=$(find_peer "$(citus_patch_name "$release")")
        if [ -z "$patch" ]; then
            echo "SKIPPED: Citus $release needs its patch ($(citus_patch_name "$release")), which is not beside the checkout"
            exit 77
        fi
    fi
    pg_config=$(citus_pg_config)
    # the stamp names the sources and the server built against: another PostgreSQL or patch is built again
    stamp=$(cat "$archive" ${patch:+"$patch"} <("$pg_config" --version --configure) | sha256sum | cut -c1-16)
    stage=$IDCODEC_CACHE/citus-$release-$stamp
    if [ ! -f "$stage/.complete" ]; then
        for package in "${CITUS_BUILD_PACKAGES[@]}"; do
            dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
        done
        if [ ${#missing[@]} -gt 0 ]; then
            env DEBIAN_FRONTEND=noninteractive apt-get update -qq
            env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
        fi
        echo "building Citus $release for $("$pg_config" --version) from $(basename "$archive") (once; a few minutes)"
        citus_build "$archive" "$patch" "$stage" || exit 1
        chmod -R a+rX "$stage"
        touch "$stage/.complete"
    fi
    citus_copy "$stage/lib" "$("$pg_config" --pkglibdir)"
    citus_copy "$stage/share" "$("$pg_config" --sharedir)"
    echo "Citus $release for $("$pg_config" --version)"
}
