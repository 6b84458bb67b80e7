#!/usr/bin/env bash
# Installs what is missing, builds and installs idcodec, starts a throwaway cluster and shows every family at work
# (examples/tour.sql).
source "$(dirname "$0")/setup.sh"
install_dependencies
build_and_install
start_cluster
psql -X -v ON_ERROR_STOP=1 -f examples/tour.sql
cat <<'NEXT'

That was idcodec in a throwaway cluster, which is gone now. Next:
  - install it into your own PostgreSQL: README.md, "Installation" (make && sudo make install, or the Debian package);
  - every function, with its signature, NULLs, errors and examples: docs/ (one page per family);
  - the test command, what it changes on this machine and how long it takes: docs/development.md.
NEXT
