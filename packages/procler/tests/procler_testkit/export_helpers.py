"""The stack every export test converts: one process per feature the targets read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from procler.config.load import check_config
from procler.config.model import ProjectConfig
from procler_testkit.config_helpers import write_config

EXPORT_TESTS = Path(__file__).parents[1] / "export"  # their golden files and data

EVERY_FEATURE = """
processes:
  migrate:
    args: [python3, manage.py, migrate]
    restart: {policy: "no"}
    export: {image: "python:3.12"}
  db:
    context: docker
    docker: {image: "postgres:16", volumes: ["pgdata:/var/lib/postgresql/data"], network_mode: bridge}
    env_file: db.env
    ports: [5432]
    healthcheck: {exec: pg_isready -U postgres, interval: 2s, timeout: 1s, retries: 5, start_period: 3s}
  api:
    command: "uvicorn app:app --port 8000 # main API"
    description: the HTTP API
    env_file: [.env]
    env: {DATABASE_URL: "postgres://db:5432/shop?sslmode=disable", GREETING: "50% off $TODAY"}
    ports: [8000]
    tags: [backend]
    restart: {policy: always, max_restarts: 10}
    depends_on:
      - {name: db, condition: healthy}
      - {name: migrate, condition: completed_successfully}
    healthcheck: {http: {port: 8000, path: /health}, restart_on_unhealthy: true}
    export: {image: "python:3.12"}
    replicas: 2
    namespace: web
    ready_log_line: "Application startup complete"
  worker:
    args: [python3, worker.py, "--queue", "a b"]
    depends_on: [{name: api, condition: log_ready}]
    ready_log_line: "worker ready"
    max_memory: 256MB
    success_exit_codes: [0, 3]
    healthcheck: {log: "heartbeat"}
    export: {image: "python:3.12"}
  report:
    command: python report.py
    schedule: "30 2 * * 1-5"
    restart: {policy: "no"}
    healthcheck: {tcp: {port: 9100}}
    export: {image: "python:3.12"}
  legacy:
    context: docker
    docker: {container: legacy-app}
  tail:
    command: tail -f app.log
    daemon_mode: true
    daemon_pidfile: run/tail.pid
groups:
  backend: {processes: [db, api, worker], description: what the app needs}
"""


# The env files EVERY_FEATURE names: api's env overrides GREETING, db's has only the file.
ENV_FILES = {".env": "SECRET_KEY=s3cret\nGREETING=hello\n", "db.env": "POSTGRES_PASSWORD=dev\n"}


def load(root: Path, text: str = EVERY_FEATURE) -> ProjectConfig:
    for name, content in ENV_FILES.items():
        (root / name).write_text(content, encoding="utf-8")
    config, findings = check_config(str(write_config(root, text)), {})
    assert findings.as_dicts() == []
    assert config is not None
    return config


def golden(name: str) -> str:
    return (EXPORT_TESTS / "golden" / name).read_text(encoding="utf-8")


SCHEMAS = EXPORT_TESTS / "data" / "schemas"  # pinned: see its README.md
_COMPOSE = json.loads((SCHEMAS / "compose-spec.json").read_text(encoding="utf-8"))
_KUBERNETES = json.loads((SCHEMAS / "kubernetes-v1.30.0-strict.json").read_text(encoding="utf-8"))


def validate_compose(document: Any) -> None:
    """Raise jsonschema's ValidationError unless the Compose Specification accepts it."""
    jsonschema.Draft202012Validator(_COMPOSE).validate(document)


def validate_kubernetes(document: Any) -> None:
    """Raise unless the strict Kubernetes schema of the document's kind accepts it."""
    schema = {**_KUBERNETES, "$ref": f"#/$defs/{document['kind']}"}
    jsonschema.Draft202012Validator(schema).validate(document)


def verify_units(files: dict[str, str], folder: Path) -> None:
    """`systemd-analyze verify` accepts the units (a template through its instance @1). Skipped
    where it is not installed, unless PROCLER_REQUIRE_SYSTEMD_ANALYZE is set (CI)."""
    if shutil.which("systemd-analyze") is None:
        if os.environ.get("PROCLER_REQUIRE_SYSTEMD_ANALYZE"):
            pytest.fail("PROCLER_REQUIRE_SYSTEMD_ANALYZE is set but systemd-analyze is missing")
        pytest.skip("no systemd-analyze")
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    units = sorted(str(folder / name).replace("@.service", "@1.service") for name in files)
    proc = subprocess.run(
        ["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=120
    )
    assert (proc.returncode, proc.stderr) == (0, "")
