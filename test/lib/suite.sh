# Sourced first by every suite (test/integration/*.sh and the other shell suites): TAP output (test/lib/tap.sh), and
# what a suite run alone needs, so that `prove -v --exec bash test/integration/keyring.sh` works in a fresh clone:
# the test command (scripts/test.sh) builds and installs idcodec once before its suites and says so with
# IDCODEC_PREPARED=1; a suite run alone does it first (scripts/setup.sh, quick when nothing changed).
#
#   suite_cluster    the cluster a suite that needs only one runs on: the one its caller points at (PGHOST and
#                    PGPORT, as test/major.sh does for the other majors), else a throwaway cluster of its own
#                    (stopped when the suite exits); sets PGHOST, PGPORT, PGUSER, PGDATABASE and SERVER_LOG
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
if [ "${IDCODEC_PREPARED:-}" != 1 ]; then
    install_dependencies >&2
    ensure_test_locale >&2
    build_and_install >&2
    export IDCODEC_PREPARED=1
fi
source test/lib/tap.sh

suite_cluster() {
    [ -n "${PGHOST:-}" ] && [ -n "${PGPORT:-}" ] && return 0
    start_cluster >&2
}
