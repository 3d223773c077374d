#!/usr/bin/env bash
# What the real-stack tests run: PostgreSQL 15's server and client (initdb, postgres,
# pg_ctl, psql under /usr/lib/postgresql/15/bin), started by the tests themselves on a
# free loopback port with their data in a temporary folder.
set -euo pipefail
if [ ! -x /usr/lib/postgresql/15/bin/postgres ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
  fi
fi
echo "postgres: $(/usr/lib/postgresql/15/bin/postgres --version 2>/dev/null || echo unavailable)"
