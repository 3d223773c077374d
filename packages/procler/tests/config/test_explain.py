from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import write_config

from procler.config.explain import explain, format_duration
from procler.config.load import check_config

CHAIN = """
processes:
  db:
    command: postgres -D data
    ports: [5432]
    healthcheck:
      tcp: {port: 5432}
      interval: 2s
  api:
    command: uvicorn app:app --port 8000
    cwd: services/api
    restart: {policy: always, max_restarts: 10}
    depends_on: [{name: db, condition: healthy}]
    healthcheck:
      http: {port: 8000, path: /health}
  worker:
    args: [python, worker.py]
    restart: no
    depends_on: [api]
groups:
  backend: {processes: [db, api, worker], description: everything the API needs}
"""


def test_paragraph_for_a_three_process_chain(project: Path) -> None:
    config, findings = check_config(str(write_config(project, CHAIN)), {})
    assert findings.as_dicts() == []
    assert config is not None
    result = explain(config)
    assert result["paragraph"] == (
        "This project defines 3 processes and 1 group. "
        "db runs `postgres -D data` in the project root; it is healthy when 127.0.0.1:5432 "
        "accepts TCP connections (checked every 2s); it is restarted on failure (at most 5 "
        "times); it uses port 5432. "
        "api runs `uvicorn app:app --port 8000` in services/api/ once db is healthy; it is "
        "healthy when GET http://127.0.0.1:8000/health answers 200-399 (checked every 10s); "
        "it is always restarted (at most 10 times). "
        "worker runs `python worker.py` in the project root once api has started; it is not "
        "restarted. "
        "Start order: db, then api, then worker. "
        "Group backend holds db, api and worker (everything the API needs)."
    )
    assert result["start_order"] == [["db"], ["api"], ["worker"]]
    assert result["counts"] == {
        "processes": 3,
        "config_processes": 3,
        "runtime_processes": 0,
        "groups": 1,
        "recipes": 0,
        "snippets": 0,
        "health_checks": 2,
        "liveness_checks": 0,
        "dependencies": 2,
    }


def test_parallel_levels_are_said_to_start_together(project: Path) -> None:
    text = (
        "processes:\n  a: {command: a}\n  b: {command: b}\n  c: {command: c, depends_on: [a, b]}\n"
    )
    config, _ = check_config(str(write_config(project, text)), {})
    assert config is not None
    assert explain(config)["paragraph"].endswith("Start order: a and b together, then c.")


def test_format_duration() -> None:
    assert [format_duration(s) for s in (0.05, 1.5, 10, 90, 5400, 3600)] == [
        "50ms",
        "1.5s",
        "10s",
        "1m30s",
        "1h30m",
        "1h",
    ]
