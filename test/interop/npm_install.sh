# Shared set-up of the npm interop tests, sourced (bash, set -euo pipefail) by test/integration/*_interop.sh.
#
#   interop_prepare LABEL PACKAGE VERSION
#
# checks that node, npm and psql are on the PATH, cds into test/interop (INTEROP_DIR) and runs `npm install` there
# (every package pinned in package.json). Returns when PACKAGE is installed at exactly VERSION. Prints
# "SKIPPED: LABEL interop: npm registry unreachable: ..." and exits 77 when npm can neither reach the registry nor install the
# package from its cache; exits 1 (messages prefixed "LABEL interop:") on any other failure.

INTEROP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$INTEROP_DIR/../lib/npm.sh"

# interop_installed_version PACKAGE: the version in node_modules, or nothing.
interop_installed_version() {
    node -e 'try { process.stdout.write(require("./node_modules/" + process.argv[1] + "/package.json").version) } catch (e) {}' "$1"
}

interop_prepare() {
    local label=$1 package=$2 expected=$3
    cd "$INTEROP_DIR"

    local tool
    for tool in node npm psql; do
        command -v "$tool" >/dev/null || { echo "$label interop: $tool not found (scripts/setup.sh installs it)" >&2; exit 1; }
    done

    interop_has() { [ "$(interop_installed_version "$package")" = "$expected" ]; }
    npm_install_or_skip "$label interop" 75 interop_has
    local version
    version=$(interop_installed_version "$package")
    if [ "$version" != "$expected" ]; then
        echo "$label interop: expected $package $expected in $INTEROP_DIR/node_modules, found '${version:-nothing}'" >&2
        exit 1
    fi
}
