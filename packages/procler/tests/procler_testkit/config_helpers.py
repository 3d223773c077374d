"""Helpers for the config tests: write a project config, load it, run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from procler.config.load import check_config

PROCLER = [sys.executable, "-c", "from procler.cli import main; main()"]


def write_config(root: Path, text: str) -> Path:
    """Write `text` (dedented) as root/.procler/config.yaml and return its path."""
    folder = root / ".procler"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def errors_of(path: Path, environ: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every finding of the config at path, in file order."""
    _, findings = check_config(str(path), environ or {})
    return findings.as_dicts()


def capped(memory_mib: int) -> list[str]:
    """The procler command line in a Python whose address space is capped (RLIMIT_AS, set
    before anything is imported), so that a regression that balloons fails with
    MemoryError (exit 3) instead of exhausting the machine."""
    limit = memory_mib << 20
    return [
        sys.executable,
        "-c",
        f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
        "from procler.cli import main; main()",
    ]


def run_procler(
    cwd: Path, *args: str, env: dict[str, str] | None = None, memory_mib: int | None = None
) -> tuple[int, dict[str, Any]]:
    """Run procler in cwd (its memory capped when memory_mib is given); (exit code,
    parsed envelope)."""
    full_env = {k: v for k, v in os.environ.items() if k != "PROCLER_CONFIG"}
    full_env.update(env or {})
    command = PROCLER if memory_mib is None else capped(memory_mib)
    proc = subprocess.run(
        [*command, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=60
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


# A config using every section and kind of key (the properties mutate it, so that
# mutations reach each builder; the reference documents it).
BASE = """\
version: 1
vars:
  PORT: "8080"
  HOST: "${HOSTNAME:-localhost}"
processes:
  db:
    args: [postgres, -D, data]
    env: {PGDATA: data}
    ports: [5432]
    stop_signal: INT
    stop_timeout: 30s
    healthcheck: {tcp: {port: 5432}, interval: 1s, retries: 3}
  api:
    command: python -m api --port ${PORT}
    cwd: .
    env_file: .env
    depends_on: [{name: db, condition: healthy}, cache]
    restart: {policy: on-failure, max_restarts: 3, backoff: {initial: 1s, max: 30s}}
    healthcheck: {http: {port: 8080, path: /health, expect_status: "200-399"}}
    success_exit_codes: [0, 3]
    ready_log_line: 'listening on \\d+'
    max_memory: 512MB
    namespace: [web, backend]
    watch: {paths: ["src/**/*.py"], exclude: ["*.pyc"], debounce: 500ms, action: restart}
    export: {image: "api:latest"}
  worker: &worker
    command: python worker.py
    healthcheck: {log: 'ready on \\d+', start_period: 5s}
    tags: [jobs]
    replicas: 2
    port_base: 9000
    port_step: 10
    env: {SLOT: "${PROCLER_REPLICA}"}
  nightly:
    command: ./backup.sh
    schedule: {cron: "0 3 * * *", timezone: UTC, overlap: skip, catch_up: one, jitter: 1m, timeout: 1h}
  cache:
    context: docker
    docker: {image: "redis:7", volumes: ["./data:/data"]}
  legacy:
    command: ./daemon.sh
    daemon_mode: true
    daemon_pidfile: run/legacy.pid
    adopt_existing: true
    healthcheck: {test: "true", interval: 2s}
groups:
  backend: {processes: [db, api], description: the API, stop_order: [api, db]}
recipes:
  deploy:
    description: migrate then restart
    on_error: stop
    steps:
      - start: db
      - wait_for: {process: db, condition: healthy, timeout: 30s}
      - exec: alembic upgrade head
        cwd: .
        timeout: 2m
        retries: 2
        retry_delay: 1s
      - id: again
        restart: api
        when: {step: wait_for-2, outcome: succeeded}
      - snippet: seed
        args: {COUNT: "3"}
      - wait: 1s
      - group_stop: backend
        ignore_error: true
snippets:
  seed:
    command: python seed.py --count ${COUNT}
    description: seed the database
    timeout: 1m
    confirm: false
    tags: [db]
    args:
      COUNT: {type: integer, default: "10", required: false, description: rows}
logs: {max_size: 10MB, max_files: 3}
events: {buffer: 1000, subscriber_queue: 100}
"""
