#!/usr/bin/env bash
# The second container engine of the container tests: Podman, whose Docker-compatible API
# service the tests start themselves on a socket in a temporary folder (with the
# containers.conf these machines need), as they start PostgreSQL.
set -euo pipefail
if ! command -v podman >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman >/dev/null
  fi
fi
echo "podman: $(podman --version 2>/dev/null || echo unavailable)"
