"""What `procler config init` writes: a short commented config that validates as is."""

from __future__ import annotations

CONFIG_TEMPLATE = """\
# Procler project config. `procler config explain` says what it does,
# `procler config validate` checks it, `procler capabilities` lists every command.
version: 1

# ${NAME} or ${NAME:-default} is substituted in every value ($${...} is a literal ${...}).
vars:
  PORT: "${PORT:-8000}"

processes:
  web:
    description: a static file server for the project directory
    command: python3 -m http.server ${PORT} --bind 127.0.0.1
    ports: ["${PORT}"]
    # cwd: site                    # relative paths resolve against the project root
    # env: {LOG_LEVEL: debug}
    # env_file: .env
    # restart: {policy: on-failure, max_restarts: 5, backoff: {initial: 1s, max: 30s}}
    healthcheck:
      http: {port: "${PORT}", path: /}
      interval: 5s
  # worker:
  #   command: python3 worker.py
  #   depends_on:
  #     - {name: web, condition: healthy}

# groups:
#   backend: {processes: [web, worker], description: what `procler group start backend` runs}
"""

GITIGNORE = """\
# Procler's runtime state (logs, database, socket, runtime definitions)
state/
# Personal overrides, merged over config.yaml (and any --config) when present
config.local.yaml
"""
