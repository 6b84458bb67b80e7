#!/usr/bin/env bash
# Runs one suite written on PostgreSQL's own TAP framework (test/t/*.pl, PostgreSQL::Test::Cluster: clusters,
# standbys, promotion, logical replication, kill -9) against the PostgreSQL whose programs are in PG_BIN (the test
# installation when run alone), with that installation's Perl modules (Debian's postgresql-server-dev-NN ships them;
# the stock builds install them when configured --enable-tap-tests). Prints the suite's TAP.
#
#   bash test/t/run.sh test/t/NAME.pl
#   prove -v --exec 'bash test/t/run.sh' test/t/NAME.pl
#
# The suite's clusters live in a temporary directory, removed when it passes. As root it runs as the server's user
# (initdb refuses root), which can read the checkout but not write it. Ports are reserved with the framework's own
# lock files, in a directory every run on the machine shares.
source "$(dirname "$0")/../lib/suite.sh"
[ $# = 1 ] || { echo "usage: bash test/t/run.sh test/t/NAME.pl" >&2; exit 2; }
suite=$(realpath "$1")
if ! perl -MIPC::Run -e 1 2>/dev/null; then
    source scripts/setup.sh
    apt_install libipc-run-perl >&2
fi
perl_modules=$("$PG_BIN/pg_config" --pkglibdir)/pgxs/src/test/perl
[ -f "$perl_modules/PostgreSQL/Test/Cluster.pm" ] ||
    tap_skip_all "no PostgreSQL::Test::Cluster in $perl_modules (a build without --enable-tap-tests)"
work=$(mktemp -d "${TMPDIR:-/tmp}/idcodec-tap.XXXXXX")
ports=${TMPDIR:-/tmp}/idcodec-tap-ports
mkdir -p "$ports"
chmod 1777 "$ports" 2>/dev/null || true
runner=()
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$work"
    runner=(runuser -u postgres --)
fi
status=0
(cd "$work" && "${runner[@]}" env PATH="$PG_BIN:$PATH" PERL5LIB="$perl_modules${PERL5LIB:+:$PERL5LIB}" \
    PG_REGRESS="$("$PG_BIN/pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress" \
    TESTDIR="$work" PG_TEST_PORT_DIR="$ports" IDCODEC_ROOT="$IDCODEC_ROOT" PG_BIN="$PG_BIN" \
    IDCODEC_UPGRADE_FROM_BIN="${IDCODEC_UPGRADE_FROM_BIN:-}" perl "$suite") ||
    status=$?
if [ $status = 0 ]; then rm -rf "$work"; else echo "the suite's logs are in $work (log/ or tmp_check/log/)" >&2; fi
exit $status
