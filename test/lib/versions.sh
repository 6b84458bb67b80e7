# The extension's versions, sourced by suites run from the checkout's root.
#
#   idcodec_current    the version a fresh install gets (idcodec.control's default_version)
#   idcodec_previous   the release the current one updates from: the newest with an update script to it
idcodec_current() {
    sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control
}

idcodec_previous() {
    ls idcodec--*--"$(idcodec_current)".sql | sed -E 's/^idcodec--([0-9.]+)--.*/\1/' | sort -V | tail -n 1
}
