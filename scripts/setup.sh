# Sourced by demo.sh, test.sh and the bench: installs what is missing, builds the extension and installs it into a
# temporary PostgreSQL installation, and offers start_cluster for a throwaway cluster of its own.
set -euo pipefail

IDCODEC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export IDCODEC_ROOT
PG_MAJOR=15
# The tests run a temporary PostgreSQL installation made from the server's packages (its programs and data files
# copied, its headers and libraries linked), into which idcodec and the peer systems are installed, so a test run
# never writes to the system's PostgreSQL directories. PostgreSQL finds its files relative to its programs, so the
# copy is a complete installation. IDCODEC_INSTALL chooses where; it is reused while the server is the same.
# It lives in the cache outside the checkout, with the PostgreSQL majors built from source (IDCODEC_CACHE; by
# default /var/cache/idcodec for root, since the server user must be able to read what it runs, which it cannot under
# /root; else ~/.cache/idcodec).
if [ "$(id -u)" = 0 ]; then
    IDCODEC_CACHE=${IDCODEC_CACHE:-/var/cache/idcodec}
else
    IDCODEC_CACHE=${IDCODEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idcodec}
fi
export IDCODEC_CACHE
# The compilers run through ccache (installed with the rest), its objects in that cache: the extension is compiled
# again for every major, for the sanitized server, the package and the installation test, and a run whose sources did
# not change compiles nothing. (/usr/lib/ccache holds compilers of the same names that call the real ones.)
export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$IDCODEC_CACHE/ccache CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=4G
SYSTEM_PG=/usr/lib/postgresql/$PG_MAJOR
export IDCODEC_INSTALL=${IDCODEC_INSTALL:-$IDCODEC_CACHE/install-$PG_MAJOR-$(printf '%s' "$IDCODEC_ROOT" | md5sum | cut -c1-8)}
# A caller that has built and installed idcodec (the test command, test/major.sh for another major) says so with
# IDCODEC_PREPARED=1 and names that installation's programs in PG_BIN.
if [ "${IDCODEC_PREPARED:-}" != 1 ] || [ -z "${PG_BIN:-}" ]; then
    export PG_BIN=$IDCODEC_INSTALL$SYSTEM_PG/bin
fi
# git: `make dist` and the README's clone; ca-certificates: npm's registry over HTTPS (Debian's nodejs only
# recommends it); strace: snowflake_file.sh holds a backend at a system call.
REQUIRED_PACKAGES=(postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR postgresql-contrib make g++ clang libclang-rt-14-dev
                   libgtest-dev libbenchmark-dev libssl-dev locales python3 libpq-dev clang-format
                   git ca-certificates libipc-run-perl ccache strace)
# The suites run again in a database with this locale, whose case rules differ from ASCII ('I' lowercases to 'ı').
export TEST_LOCALE=tr_TR.UTF-8

# The suites set what they need; settings a caller exported for libpq (PGOPTIONS and the like) must not reach them.
# (Where to connect, PGHOST and PGPORT, is set by start_cluster and the scripts that start clusters of their own.)
unset PGOPTIONS PGTZ PGDATESTYLE PGCLIENTENCODING PGAPPNAME PGSERVICE PGSERVICEFILE PGSYSCONFDIR PGTARGETSESSIONATTRS \
      PGCONNECT_TIMEOUT PGGSSENCMODE PGSSLMODE PGREQUIRESSL PGPASSFILE

log() { printf '== %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

install_dependencies() {
    local missing=()
    for package in "${REQUIRED_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    # Node.js is only for the interop tests, which say so and skip if it cannot be had; a node already on the PATH
    # (from any source) will do.
    command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
    [ ${#missing[@]} -gt 0 ] || return 0
    log "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_install "${missing[@]}" || {
        # install what can be installed: required packages must succeed
        apt_install "${REQUIRED_PACKAGES[@]}"
        apt_install nodejs npm || log "could not install Node.js: the npm interop tests will be skipped"
    }
}

# The chunkers `make bench` times beside idcodec's (test/bench/peers/run.sh): restic's (Go) and borg's, and gnuplot
# for its charts. Best effort: a benchmark leaves out a peer it cannot have.
install_bench_peers() {
    local packages=(golang-go golang-github-restic-chunker-dev borgbackup gnuplot-nox) missing=() package
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    apt_install "${missing[@]}" || log "could not install ${missing[*]}: the benchmark leaves those peers out"
}

# Generates TEST_LOCALE unless the C library already has it.
ensure_test_locale() {
    locale -a 2>/dev/null | grep -qix "${TEST_LOCALE/UTF-8/utf8}" && return 0
    log "generating the $TEST_LOCALE locale"
    as_root localedef -i "${TEST_LOCALE%%.*}" -f UTF-8 "$TEST_LOCALE"
}

# find_peer FILE: the path of a peer system's source archive (Citus, pg_hashids), looked for in $IDCODEC_PEERS,
# else in the directories beside the checkout (up to four levels down); nothing when it is not there.
find_peer() {
    local dir
    for dir in ${IDCODEC_PEERS:-} "$(dirname "$IDCODEC_ROOT")"; do
        [ -d "$dir" ] || continue
        find -L "$dir" -maxdepth 4 -name "$1" -type f -not -path "$IDCODEC_ROOT/*" 2>/dev/null | head -n 1 | grep . && return 0
    done
    return 0
}
export -f find_peer

# copy_system_installation DEST: the system's PostgreSQL as an installation of its own under DEST (its programs and
# data files copied, its libraries and headers linked file by file, so installing into DEST replaces a link, never
# the file it points to), without any idcodec file the system has.
copy_system_installation() {
    local dest=$1
    mkdir -p "$dest$SYSTEM_PG" "$dest/usr/share/postgresql" "$dest/usr/include"
    cp -a "$SYSTEM_PG/bin" "$dest$SYSTEM_PG/"
    cp -a "/usr/share/postgresql/$PG_MAJOR" "$dest/usr/share/postgresql/"
    cp -as "$SYSTEM_PG/lib" "$dest$SYSTEM_PG/lib"
    cp -as /usr/include/postgresql "$dest/usr/include/postgresql"
    rm -f "$dest$SYSTEM_PG"/lib/idcodec* "$dest/usr/share/postgresql/$PG_MAJOR"/extension/idcodec*
    chmod 755 "$dest"
}

make_temp_installation() {
    local origin
    origin=$(stat -c '%s %Y' "$SYSTEM_PG/bin/postgres")
    [ "$(cat "$IDCODEC_INSTALL/.made-from" 2>/dev/null)" = "$origin" ] && return 0
    log "making a temporary PostgreSQL installation in $IDCODEC_INSTALL"
    rm -rf "$IDCODEC_INSTALL"
    mkdir -p "$IDCODEC_CACHE"
    chmod 755 "$IDCODEC_CACHE"
    copy_system_installation "$IDCODEC_INSTALL"
    echo "$origin" >"$IDCODEC_INSTALL/.made-from"
}

# The extension is built warning-free: the test command treats a warning as an error (WERROR=0 relaxes it). The
# test installation also gets the earlier releases' complete install scripts (test/releases/), which the suites
# install old versions from; a plain `make install` leaves them out.
build_and_install() {
    make_temp_installation
    log "building idcodec"
    make -C "$IDCODEC_ROOT" -s -j"$(nproc)" PG_CONFIG=$PG_BIN/pg_config WERROR=${WERROR:-1} >/dev/null
    make -C "$IDCODEC_ROOT" -s PG_CONFIG=$PG_BIN/pg_config WITH_RELEASE_FIXTURES=1 install >/dev/null
}

# A throwaway cluster of the temporary installation on a port of its own (IDCODEC_PORT chooses it); PGHOST, PGPORT,
# PGUSER and PGDATABASE point at it and SERVER_LOG is its log. It is stopped and removed when the script exits,
# also when it is interrupted (test/lib/cluster.sh).
start_cluster() {
    source "$IDCODEC_ROOT/test/lib/cluster.sh"
    export PGPORT=${IDCODEC_PORT:-$(free_port)}
    log "starting a throwaway cluster in $CLUSTERS (port $PGPORT)"
    cluster_start main "$PGPORT" "max_connections=120" "shared_buffers=256MB"
    export PGHOST=$CLUSTERS PGUSER=postgres PGDATABASE=postgres
    SERVER_LOG=$(cluster_log main)
    export SERVER_LOG
}

cd "$IDCODEC_ROOT"
