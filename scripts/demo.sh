#!/usr/bin/env bash
# Installs what is missing, builds and installs idcodec, starts a throwaway cluster and shows every family at work
# (examples/tour.sql).
source "$(dirname "$0")/setup.sh"
install_dependencies
build_and_install
start_cluster
psql -X -v ON_ERROR_STOP=1 -f examples/tour.sql
