"""import process-compose: its keys as ours (probes with Kubernetes' thresholds, shutdown,
disabled, availability, depends_on conditions, is_interactive), its override file merged,
and every key left behind a warning at its file:line:column. The config written loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from procler_testkit.config_helpers import run_procler
from ruamel.yaml import YAML

from procler.config.load import check_config

PROCESS_COMPOSE = """\
version: "0.5"
log_level: debug
environment:
  - "SHARED=1"
processes:
  db:
    command: "postgres -D data"
    working_dir: ./db
    readiness_probe:
      exec:
        command: "pg_isready -h 127.0.0.1"
      initial_delay_seconds: 2
      period_seconds: 5
      timeout_seconds: 3
      success_threshold: 2
      failure_threshold: 4
    shutdown:
      command: "pg_ctl stop -m fast -D data"
      timeout_seconds: 10
      signal: 2
  api:
    command: "python -m api --port $PORT"
    environment: ["PORT=8000"]
    availability:
      restart: on_failure
      backoff_seconds: 2
      max_restarts: 3
    depends_on:
      db:
        condition: process_healthy
    liveness_probe:
      http_get: {host: 127.0.0.1, port: 8000, path: /health, scheme: http}
      period_seconds: 10
      failure_threshold: 3
    ready_log_line: "Listening on :8000"
  debug:
    command: "debugger"
    disabled: true
    namespace: tools
    is_interactive: true
    log_location: ./debug.log
    depends_on:
      api:
        condition: process_completed
"""
OVERRIDE = """\
processes:
  api:
    environment: ["PORT=9000"]
    availability: {restart: always}
"""


def read(text: str) -> dict[str, Any]:
    data: dict[str, Any] = YAML(typ="safe", pure=True).load(text)
    return data


def test_process_compose_with_its_override(project: Path) -> None:
    (project / "process-compose.yaml").write_text(PROCESS_COMPOSE)
    (project / "process-compose.override.yaml").write_text(OVERRIDE)
    code, env = run_procler(project, "import", "process-compose", "process-compose.yaml")
    assert code == 0, env
    data = env["data"]
    assert data["sources"] == ["process-compose.yaml", "process-compose.override.yaml"]
    assert [(w["process"], w["field"], w["at"]) for w in data["warnings"]] == [
        ("", "log_level", "process-compose.yaml:2:1"),
        ("debug", "log_location", "process-compose.yaml:41:5"),
        ("debug", "depends_on", "process-compose.yaml:44:20"),
    ]
    written = project / ".procler" / "config.yaml"
    assert read(written.read_text())["processes"] == {
        "db": {
            "command": "postgres -D data",
            "cwd": "./db",
            "env": {"SHARED": "1"},
            "restart": "no",
            "healthcheck": {
                "exec": "pg_isready -h 127.0.0.1",
                "start_period": "2s",
                "interval": "5s",
                "timeout": "3s",
                "successes": 2,
                "retries": 4,
            },
            "stop_command": {"command": "pg_ctl stop -m fast -D data", "timeout": "10s"},
            "stop_signal": "INT",
        },
        "api": {
            "command": "python -m api --port $PORT",
            "env": {"SHARED": "1", "PORT": "9000"},
            # the override's restart over the file's availability: the rest stays
            "restart": {
                "policy": "always",
                "backoff": {"initial": "2s", "max": "2s"},
                "max_restarts": 3,
            },
            "depends_on": [{"name": "db", "condition": "healthy"}],
            "liveness": {
                "http": {"url": "http://127.0.0.1:8000/health"},
                "interval": "10s",
                "retries": 3,
            },
            "ready_log_line": "Listening\\ on\\ :8000",
        },
        "debug": {
            "command": "debugger",
            "env": {"SHARED": "1"},
            "namespace": "tools",
            "autostart": False,
            "stdin": True,
            "restart": "no",
            "depends_on": [{"name": "api", "condition": "completed_successfully"}],
        },
    }
    (project / "db").mkdir()
    config, findings = check_config(str(written), {})
    assert findings.as_dicts() == [] and config is not None
    assert config.processes["db"].stop_command is not None
    assert config.processes["debug"].autostart is False
