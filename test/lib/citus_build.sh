# Builds and installs Citus from the peer source archive once per machine, sourced by the Citus suite.
#
#   citus_install ARCHIVE PATCH   installs Citus unless the installed citus.control is already the archive's
#                                 version; PATCH (may be empty) is applied with patch -p1 first. Build dependencies
#                                 come from Debian (apt-get, as root).
CITUS_BUILD_PACKAGES=(libzstd-dev liblz4-dev libcurl4-openssl-dev libkrb5-dev libssl-dev libselinux1-dev libpam0g-dev
                      libxslt1-dev libreadline-dev)

citus_install() {
    local archive=$1 patch=$2
    local pg_config=${PG_BIN:-/usr/lib/postgresql/15/bin}/pg_config
    local work source wanted installed
    work=$(mktemp -d /tmp/idcodec-citus-build.XXXXXX)
    tar -xzf "$archive" -C "$work"
    source=$(find "$work" -path '*/src/backend/distributed/citus.control' | head -n 1)
    source=${source%/src/backend/distributed/citus.control}
    wanted=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$source/src/backend/distributed/citus.control")
    installed=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$("$pg_config" --sharedir)/extension/citus.control" 2>/dev/null || true)
    if [ "$installed" = "$wanted" ] && [ -f "$("$pg_config" --pkglibdir)/citus.so" ]; then
        echo "citus $wanted is installed already"
        rm -rf "$work"
        return 0
    fi
    local missing=() package
    for package in "${CITUS_BUILD_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    echo "building citus $wanted from $(basename "$archive") (a few minutes)"
    if [ -n "$patch" ] && ! (cd "$source" && patch -s -p1 < "$patch"); then rm -rf "$work"; return 1; fi
    # (an if, so a caller's set -e cannot leave the build directory behind)
    local status=0
    if ! (cd "$source" && ./configure PG_CONFIG="$pg_config" --without-libcurl >"$work/build.log" 2>&1 &&
          make -s -j"$(nproc)" >>"$work/build.log" 2>&1 && make -s install >>"$work/build.log" 2>&1); then
        status=1
        echo "building citus failed:"; tail -n 30 "$work/build.log"
    fi
    rm -rf "$work"
    return $status
}
