# Sourced: builds pgEdge's snowflake extension 2.6.0 from its source archive into a PostgreSQL installation, once.
#
#   pgedge_snowflake_install ARCHIVE PG_CONFIG   builds and installs it unless that installation has it already
pgedge_snowflake_install() {
    local archive=$1 pg_config=$2 build source_dir
    if [ -f "$("$pg_config" --pkglibdir)/snowflake.so" ] &&
       [ -f "$("$pg_config" --sharedir)/extension/snowflake--2.5.0--2.6.0.sql" ]; then
        return 0
    fi
    build=$(mktemp -d)
    local status=0
    # (an if, so a caller's set -e cannot leave the build directory behind; USE_PGXS because its Makefile otherwise
    # expects to sit in PostgreSQL's contrib tree)
    if tar -xzf "$archive" -C "$build" &&
       source_dir=$(dirname "$(find "$build" -name snowflake.control | head -n 1)") &&
       make -C "$source_dir" -s USE_PGXS=1 PG_CONFIG="$pg_config" >"$build/build.log" 2>&1 &&
       make -C "$source_dir" -s USE_PGXS=1 PG_CONFIG="$pg_config" install >>"$build/build.log" 2>&1; then
        echo "built and installed pgEdge snowflake 2.6.0 from $(basename "$archive") for $("$pg_config" --version)"
    else
        status=1
        echo "building pgEdge snowflake 2.6.0 for $("$pg_config" --version) failed:" >&2
        tail -n 20 "$build/build.log" >&2 2>/dev/null
    fi
    rm -rf "$build"
    return $status
}
