# Sourced: builds a peer system's PGXS extension from its source archive into a PostgreSQL installation, once.
#
#   pg_hashids_install ARCHIVE PG_CONFIG         pg_hashids 1.3
#   pgedge_snowflake_install ARCHIVE PG_CONFIG   pgEdge's snowflake 2.6.0
#
# Each builds and installs unless that installation has the extension already.
source "$(dirname "${BASH_SOURCE[0]}")/lock.sh"

pg_hashids_install() {
    peer_extension_install "pg_hashids 1.3" "$1" "$2" pg_hashids pg_hashids--1.3.sql
}

# USE_PGXS: its Makefile otherwise expects to sit in PostgreSQL's contrib tree.
pgedge_snowflake_install() {
    peer_extension_install "pgEdge snowflake 2.6.0" "$1" "$2" snowflake snowflake--2.5.0--2.6.0.sql USE_PGXS=1
}

# peer_extension_install LABEL ARCHIVE PG_CONFIG NAME SCRIPT [MAKE_ARGUMENT ...]: NAME is the control file's and
# library's name, SCRIPT the extension script that shows the wanted version is installed.
peer_extension_install() {
    with_lock "peer-$4-$3" peer_extension_install_alone "$@"
}

peer_extension_install_alone() {
    local label=$1 archive=$2 pg_config=$3 name=$4 script=$5 build source_dir
    shift 5
    if [ -f "$("$pg_config" --pkglibdir)/$name.so" ] && [ -f "$("$pg_config" --sharedir)/extension/$script" ]; then
        return 0
    fi
    build=$(mktemp -d)
    local status=0
    # (an if, so a caller's set -e cannot leave the build directory behind)
    if tar -xzf "$archive" -C "$build" &&
       source_dir=$(dirname "$(find "$build" -name "$name.control" | head -n 1)") &&
       make -C "$source_dir" -s "$@" PG_CONFIG="$pg_config" >"$build/build.log" 2>&1 &&
       make -C "$source_dir" -s "$@" PG_CONFIG="$pg_config" install >>"$build/build.log" 2>&1; then
        echo "built and installed $label from $(basename "$archive") for $("$pg_config" --version)"
    else
        status=1
        echo "building $label for $("$pg_config" --version) failed:" >&2
        tail -n 20 "$build/build.log" >&2 2>/dev/null
    fi
    rm -rf "$build"
    return $status
}
