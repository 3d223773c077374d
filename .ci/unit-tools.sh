#!/usr/bin/env bash
# What the export tests check systemd units with: systemd-analyze verify (Debian's systemd
# package, ~3 MB; it verifies without systemd running). The docker compose plugin is not
# packaged for this Debian: compose files are checked against the pinned Compose schema.
set -euo pipefail
if ! command -v systemd-analyze >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null
  fi
fi
echo "systemd-analyze: $(systemd-analyze --version 2>/dev/null | head -n 1 || echo unavailable)"
