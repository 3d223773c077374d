"""A Procler 0.3 style config run end to end: its probes, log_ready, tags and stop_order."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project, wait_for


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    db_port, api_port = _free_port(), _free_port()
    tcp = f"import socket,time; s=socket.socket(); s.bind(('127.0.0.1',{db_port})); s.listen(); time.sleep(600)"
    http = (
        "import http.server,time; "
        f"srv=http.server.HTTPServer(('127.0.0.1',{api_port}), http.server.SimpleHTTPRequestHandler); "
        "time.sleep(0.3); print('Uvicorn running on it', flush=True); srv.serve_forever()"
    )
    proj = Project(
        tmp_path,
        f"""
version: 1
vars:
  API_PORT: "{api_port}"
processes:
  db:
    command: {PY} -c "{tcp}"
    tags: [backend, data]
    healthcheck:
      tcp_socket: "127.0.0.1:{db_port}"
      interval: 1s
  api:
    command: {PY} -c "{http}"
    tags: [backend]
    ready_log_line: "running on"
    healthcheck:
      http_get: "http://127.0.0.1:${{API_PORT}}/"
  worker:
    command: {PY} -c "import time; time.sleep(600)"
    healthcheck:
      test: "{PY} -c pass"
    depends_on:
      - name: db
        condition: healthy
      - name: api
        condition: log_ready
groups:
  backend:
    processes: [db, api, worker]
    stop_order: [api, db]
""",
    )
    yield proj
    proj.close()


def test_the_seed_probes_and_log_ready_order_the_start(project: Project) -> None:
    project.ok("start", "worker")
    project.ok("wait", "--all", "--for", "healthy", "--timeout", "20s")
    status = {p["name"]: p for p in project.ok("status")["processes"]}
    assert {n: p["status"] for n, p in status.items()} == {
        "db": "healthy",
        "api": "healthy",
        "worker": "healthy",
    }
    assert (status["api"]["log_ready"], "log_ready" in status["db"]) == (True, False)
    assert [h["status"] for h in (status[n]["health"] for n in ("db", "api", "worker"))] == [
        "healthy",
        "healthy",
        "healthy",
    ]
    # api prints its ready line 0.3 s after it starts; worker waits for that line
    began = {n: datetime.fromisoformat(p["started_at"]) for n, p in status.items()}
    assert (began["worker"] - began["api"]).total_seconds() >= 0.3


def test_status_filters_by_tag_and_shows_tags(project: Project) -> None:
    listed = project.ok("status", "--tag", "data")["processes"]
    assert [(p["name"], p["tags"]) for p in listed] == [("db", ["backend", "data"])]


def test_group_stop_follows_stop_order_then_the_rest(project: Project) -> None:
    project.ok("group", "start", "backend")
    project.ok("wait", "--group", "backend", "--for", "healthy", "--timeout", "20s")
    stopped = project.ok("group", "stop", "backend")
    assert [(p["name"], p["status"]) for p in stopped["processes"]] == [
        ("api", "stopped"),
        ("db", "stopped"),
        ("worker", "stopped"),
    ]


def test_max_memory_restarts_a_process_that_keeps_growing(tmp_path: Path) -> None:
    grow = "import time; b=[]; [(b.append(bytearray(1 << 20)), time.sleep(0.02)) for _ in range(400)]; time.sleep(600)"
    project = Project(
        tmp_path,
        f"""
version: 1
processes:
  leaky:
    command: {PY} -c "{grow}"
    max_memory: 64M
    restart: {{policy: always, max_restarts: 5}}
""",
    )
    try:
        project.ok("start", "leaky")
        assert wait_for(lambda: project.ok("status", "leaky")["restarts"] >= 1, timeout=30)
        project.ok("wait", "leaky", "--for", "running", "--timeout", "10s")
        status = project.ok("status", "leaky")
        assert (status["last_exit"]["reason"], status["run"], status["status"]) == (
            "max_memory",
            2,
            "running",
        )
    finally:
        project.close()
