# Sourced: builds pg_hashids 1.3 from its source archive into a PostgreSQL installation, once.
#
#   pg_hashids_install ARCHIVE PG_CONFIG   builds and installs it unless that installation has it already
pg_hashids_install() {
    local archive=$1 pg_config=$2 build source_dir
    if [ -f "$("$pg_config" --pkglibdir)/pg_hashids.so" ] &&
       [ -f "$("$pg_config" --sharedir)/extension/pg_hashids--1.3.sql" ]; then
        return 0
    fi
    build=$(mktemp -d)
    local status=0
    # (an if, so a caller's set -e cannot leave the build directory behind)
    if tar -xzf "$archive" -C "$build" &&
       source_dir=$(dirname "$(find "$build" -name pg_hashids.control | head -n 1)") &&
       make -C "$source_dir" -s PG_CONFIG="$pg_config" >"$build/build.log" 2>&1 &&
       make -C "$source_dir" -s PG_CONFIG="$pg_config" install >>"$build/build.log" 2>&1; then
        echo "built and installed pg_hashids 1.3 from $(basename "$archive") for $("$pg_config" --version)"
    else
        status=1
        echo "building pg_hashids 1.3 for $("$pg_config" --version) failed:" >&2
        tail -n 20 "$build/build.log" >&2 2>/dev/null
    fi
    rm -rf "$build"
    return $status
}
