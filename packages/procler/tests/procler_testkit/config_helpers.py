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


def run_procler(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    """Run procler in cwd; (exit code, parsed envelope)."""
    full_env = {k: v for k, v in os.environ.items() if k != "PROCLER_CONFIG"}
    full_env.update(env or {})
    proc = subprocess.run(
        [*PROCLER, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=60
    )
    return proc.returncode, json.loads(proc.stdout)


# A config using every kind of key (the properties mutate it; the reference documents it).
BASE = """\
version: 1
vars:
  PORT: "8080"
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
    depends_on: [{name: db, condition: healthy}]
    restart: {policy: on-failure, max_restarts: 3, backoff: {initial: 1s, max: 30s}}
    healthcheck: {http: {port: 8080, path: /health, expect_status: "200-399"}}
    success_exit_codes: [0, 3]
  worker: &worker
    command: python worker.py
    healthcheck: {log: 'ready on \\d+', start_period: 5s}
    tags: [jobs]
  cache:
    context: docker
    docker: {image: "redis:7", volumes: ["./data:/data"]}
groups:
  backend: {processes: [db, api], description: the API}
logs: {max_size: 10MB, max_files: 3}
"""
