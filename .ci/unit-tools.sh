#!/usr/bin/env bash
# What the export tests check systemd units with: systemd-analyze verify (Debian's systemd
# package, ~3 MB; it verifies without systemd running). The docker compose plugin is not
# packaged for this Debian: compose files are checked against the pinned Compose schema.
# PostgreSQL 15 (server and psql): the real-stack tests run a database under the supervisor
# (packages/procler/tests/integration/test_postgres.py; initdb and postgres, never the packaged service).
set -euo pipefail
need=()
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql-15)
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
echo "systemd-analyze: $(systemd-analyze --version 2>/dev/null | head -n 1 || echo unavailable)"
echo "postgres: $(/usr/lib/postgresql/15/bin/postgres --version 2>/dev/null || echo unavailable)"
