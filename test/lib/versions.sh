# The extension's versions, sourced by suites run from the checkout's root.
#
#   idcodec_current    the version a fresh install gets (idcodec.control's default_version)
#   idcodec_previous   the release the current one updates from: the newest with an update script to it
#   idcodec_releases   every earlier release a database may be at: each version the root's update chain updates
#                      from, oldest first (a test installation installs each from its complete script in
#                      test/releases/, `make install WITH_RELEASE_FIXTURES=1`)
#   idcodec_oldest     the first of them, from which the chain leads through every later one
idcodec_current() {
    sed -n "s/^default_version = '\(.*\)'/\1/p" idcodec.control
}

idcodec_previous() {
    ls idcodec--*--"$(idcodec_current)".sql | sed -E 's/^idcodec--([0-9.]+)--.*/\1/' | sort -V | tail -n 1
}

idcodec_releases() {
    ls idcodec--*--*.sql | sed -E 's/^idcodec--([0-9.]+)--.*/\1/' | sort -uV
}

idcodec_oldest() {
    idcodec_releases | head -n 1
}
