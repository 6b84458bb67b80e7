# Shared set-up of the npm interop tests, sourced (bash, set -euo pipefail, test/lib/tap.sh) by
# test/integration/*_interop.sh.
#
#   interop_prepare LABEL PACKAGE VERSION
#
# checks that node, npm and psql are on the PATH, cds into test/interop (INTEROP_DIR) and runs `npm install` there
# (every package pinned in package.json). One TAP test: PACKAGE is installed at exactly VERSION (returns 0), or not
# (returns 1). Returns 77 without a test, INTEROP_SKIP_REASON saying why, when npm can neither reach the registry
# nor install the package from its cache.
#
#   interop_require LABEL PACKAGE VERSION
#
# the same for a suite that can do nothing without the package: skips the whole suite (tap_skip_all) or, when the
# package is not there, ends it (tap_done).

INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$INTEROP_DIR/../lib/npm.sh"

# interop_installed_version PACKAGE: the version in node_modules, or nothing.
interop_installed_version() {
    node -e 'try { process.stdout.write(require("./node_modules/" + process.argv[1] + "/package.json").version) } catch (e) {}' "$1"
}

interop_prepare() {
    local label=$1 package=$2 expected=$3 description="$2 $3 installed from npm in test/interop/node_modules"
    cd "$INTEROP_DIR"

    local tool missing=""
    for tool in node npm psql; do
        command -v "$tool" >/dev/null || missing+=" $tool"
    done
    if [ -n "$missing" ]; then
        tap_not_ok "$description" "$label interop:$missing not found (scripts/setup.sh installs them)"
        return 1
    fi

    interop_has() { [ "$(interop_installed_version "$package")" = "$expected" ]; }
    local status=0
    npm_install_or_skip "$label interop" 75 interop_has || status=$?
    if [ $status = 77 ]; then
        INTEROP_SKIP_REASON=$NPM_SKIP_REASON
        return 77
    fi
    local version
    version=$(interop_installed_version "$package")
    if [ $status = 0 ] && [ "$version" = "$expected" ]; then
        tap_ok "$description"
        return 0
    fi
    tap_not_ok "$description" "$(tail -n 30 <<<"${NPM_FAILURE:-found ${version:-nothing} in $INTEROP_DIR/node_modules}")"
    return 1
}

interop_require() {
    local status=0
    interop_prepare "$@" || status=$?
    case $status in
        0) ;;
        77) tap_skip_all "$INTEROP_SKIP_REASON" ;;
        *) tap_done; exit 1 ;;
    esac
}
