"""Health probes, dependency-ordered start and groups, with real processes on loopback."""

from __future__ import annotations

import socket
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from procler_testkit.harness import PY, Project, wait_for

SERVER = Path(__file__).parent / "scripts" / "server.py"
FAST = "interval: 100ms, timeout: 1s, retries: 2"
PATIENT = "interval: 100ms, timeout: 1s, retries: 2, start_period: 10s"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def server(port: int, delay: float = 0.0, status: int = 200) -> str:
    return f"[{PY}, {SERVER}, '{port}', '{delay}', '{status}']"


def wait(p: Project, name: str, cond: str, timeout: str = "15s") -> tuple[int, dict]:  # type: ignore[type-arg]
    return p.run("wait", name, "--for", cond, "--timeout", timeout)


def test_http_probe_healthy_and_unhealthy(make_project: Callable[[str], Project]) -> None:
    good, bad = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  good:
    args: {server(good)}
    healthcheck: {{http: {{port: {good}, path: /}}, {FAST}}}
  bad:
    args: {server(bad, 0, 500)}
    healthcheck: {{http: {{url: "http://127.0.0.1:{bad}/"}}, {FAST}}}
"""
    )
    p.ok("start", "good")
    p.ok("start", "bad")
    code, env = wait(p, "good", "healthy")
    assert code == 0, env
    assert env["data"]["health"]["status"] == "healthy"
    assert env["data"]["health"]["last_output"] == f"GET http://127.0.0.1:{good}/: 200"
    code, env = wait(p, "bad", "unhealthy")
    assert code == 0, env
    assert env["data"]["health"]["failures"] >= 2
    # Under load the verdict may come while the server is still starting (connection
    # refused); the 500 is what the probes see once it listens.
    answer = f"GET http://127.0.0.1:{bad}/: 500"
    assert wait_for(lambda: p.ok("status", "bad")["health"]["last_output"] == answer)


def test_tcp_probe_healthy_and_unhealthy(make_project: Callable[[str], Project]) -> None:
    up, never = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  up:
    args: {server(up)}
    healthcheck: {{tcp: {{port: {up}}}, {FAST}}}
  never:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{tcp: {{port: {never}}}, {FAST}}}
"""
    )
    p.ok("start", "up")
    p.ok("start", "never")
    assert wait(p, "up", "healthy")[0] == 0
    code, env = wait(p, "never", "unhealthy")
    assert code == 0, env
    assert env["data"]["status"] == "unhealthy"


def test_exec_probe_runs_in_the_process_cwd_and_env(make_project: Callable[[str], Project]) -> None:
    p = make_project(
        f"""version: 1
processes:
  ready:
    args: [{PY}, -c, "import time; open('ready.flag', 'w').close(); time.sleep(600)"]
    env: {{FLAG: ready.flag}}
    healthcheck: {{exec: 'test -f "$FLAG"', {FAST}}}
  down:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{exec: "echo nope; exit 1", {FAST}}}
"""
    )
    p.ok("start", "ready")
    p.ok("start", "down")
    assert wait(p, "ready", "healthy")[0] == 0
    code, env = wait(p, "down", "unhealthy")
    assert code == 0, env
    assert env["data"]["health"]["last_output"] == "exit 1: nope"


def test_log_probe(make_project: Callable[[str], Project]) -> None:
    port = free_port()
    p = make_project(
        f"""version: 1
processes:
  srv:
    args: {server(port, 0.3)}
    healthcheck: {{log: "listening on \\\\d+", {FAST}}}
  quiet:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{log: "never printed", {FAST}}}
"""
    )
    p.ok("start", "srv")
    p.ok("start", "quiet")
    code, env = wait(p, "srv", "healthy")
    assert code == 0, env
    assert env["data"]["health"]["last_output"] == f"listening on {port}"
    assert wait(p, "quiet", "unhealthy")[0] == 0


def test_three_level_chain_starts_in_order_after_each_is_healthy(
    make_project: Callable[[str], Project],
) -> None:
    db, api, web = free_port(), free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  web:
    args: {server(web, 0.2)}
    healthcheck: {{tcp: {{port: {web}}}, {PATIENT}}}
    depends_on: [{{name: api, condition: healthy}}]
  api:
    args: {server(api, 0.2)}
    healthcheck: {{http: {{port: {api}}}, {PATIENT}}}
    depends_on: [{{name: db, condition: healthy}}]
  db:
    args: {server(db, 0.3)}
    healthcheck: {{tcp: {{port: {db}}}, {PATIENT}}}
"""
    )
    started = p.ok("start", "web")
    assert [d["name"] for d in started["dependencies"]] == ["db", "api"]
    status = {s["name"]: s for s in p.ok("status")["processes"]}
    assert ts(status["api"]["started_at"]) >= ts(status["db"]["health"]["since"])
    assert ts(status["web"]["started_at"]) >= ts(status["api"]["health"]["since"])
    assert wait(p, "web", "healthy")[0] == 0


def test_independent_branches_start_in_parallel(make_project: Callable[[str], Project]) -> None:
    a, b = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  a:
    args: {server(a, 0.5)}
    healthcheck: {{tcp: {{port: {a}}}, {PATIENT}}}
  b:
    args: {server(b, 0.5)}
    healthcheck: {{tcp: {{port: {b}}}, {PATIENT}}}
  top:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [{{name: a, condition: healthy}}, {{name: b, condition: healthy}}]
"""
    )
    p.ok("start", "top")
    status = {s["name"]: s for s in p.ok("status")["processes"]}
    # b started before a became healthy: the branches did not wait for each other.
    assert ts(status["b"]["started_at"]) < ts(status["a"]["health"]["since"])
    assert ts(status["a"]["started_at"]) < ts(status["b"]["health"]["since"])
    assert ts(status["top"]["started_at"]) >= max(
        ts(status["a"]["health"]["since"]), ts(status["b"]["health"]["since"])
    )


def test_dependency_failed_names_the_blocking_process(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(
        f"""version: 1
processes:
  migrate:
    args: [{PY}, -c, "import sys,time; time.sleep(0.3); print('no database', file=sys.stderr); sys.exit(4)"]
    restart: {{policy: "no"}}
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [{{name: migrate, condition: completed_successfully}}]
  cache:
    args: [{PY}, -c, "import time; time.sleep(600)"]
  web:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [cache, api]
"""
    )
    code, env = p.run("start", "web")
    assert code == 1
    assert env["error_code"] == "DEPENDENCY_FAILED"
    assert (
        env["error"]
        == "cannot start api: migrate is failed, so it will not be completed_successfully"
    )
    data = env["data"]
    assert data["blocking"]["name"] == "migrate"
    assert data["blocking"]["status"] == "failed"
    assert data["blocking"]["stderr"] == ["no database"]
    assert data["waiting"] == "api"
    assert data["condition"] == "completed_successfully"
    assert [s["name"] for s in data["started"]] == ["migrate", "cache"]
    assert p.ok("status", "cache")["status"] == "running"
    assert p.ok("status", "web")["status"] == "stopped"


def test_completed_successfully_lets_the_dependent_start(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(
        f"""version: 1
processes:
  migrate:
    args: [{PY}, -c, "import time; time.sleep(0.3)"]
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [{{name: migrate, condition: completed_successfully}}]
"""
    )
    started = p.ok("start", "api")
    assert started["status"] == "running"
    assert started["dependencies"][0]["status"] == "exited"


def test_groups_start_stop_status_and_wait(make_project: Callable[[str], Project]) -> None:
    db, api = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  db:
    args: {server(db, 0.2)}
    healthcheck: {{tcp: {{port: {db}}}, {PATIENT}}}
  api:
    args: {server(api)}
    healthcheck: {{tcp: {{port: {api}}}, {PATIENT}}}
    depends_on: [{{name: db, condition: healthy}}]
  worker:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [api]
groups:
  backend: {{processes: [worker, api], description: the backend}}
"""
    )
    assert p.ok("group", "list") == {
        "groups": [
            {"name": "backend", "description": "the backend", "processes": ["worker", "api"]}
        ]
    }
    started = p.ok("group", "start", "backend")
    assert [s["name"] for s in started["processes"]] == ["db", "api", "worker"]
    assert wait(p, "api", "healthy")[0] == 0
    # several --for healthy: ready (worker has no check: ready once up for 1 s)
    met = p.ok("wait", "--group", "backend", "--for", "healthy", "--timeout", "30s")
    assert [(s["name"], s["condition_met"]) for s in met["processes"]] == [
        ("worker", True),
        ("api", True),
    ]
    again = p.ok("group", "start", "backend")  # both run: nothing else is touched
    assert [(s["name"], s["already_running"]) for s in again["processes"]] == [
        ("api", True),
        ("worker", True),
    ]
    stopped = p.ok("group", "stop", "backend")
    assert [s["name"] for s in stopped["processes"]] == ["worker", "api"]
    assert [s["status"] for s in p.ok("group", "status", "backend")["processes"]] == [
        "stopped",
        "stopped",
    ]
    assert p.ok("status", "db")["status"] == "healthy"
    code, env = p.run("group", "start", "frontend")
    assert code == 2
    assert env["error_code"] == "GROUP_NOT_FOUND"


def test_stop_with_dependents_and_up_down(make_project: Callable[[str], Project]) -> None:
    p = make_project(
        f"""version: 1
processes:
  db:
    args: [{PY}, -c, "import time; time.sleep(600)"]
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [db]
  other:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""
    )
    assert [s["name"] for s in p.ok("up")["processes"]] == ["db", "other", "api"]
    only = p.ok("stop", "db")
    assert only["status"] == "stopped"
    assert p.ok("status", "api")["status"] == "running"
    p.ok("start", "db")
    both = p.ok("stop", "db", "--with-dependents")
    assert [d["name"] for d in both["dependents"]] == ["api"]
    assert both["dependents"][0]["status"] == "stopped"
    down = p.ok("down")
    assert [s["status"] for s in down["processes"]] == ["stopped", "stopped", "stopped"]


def test_a_catastrophic_log_pattern_does_not_pin_the_supervisor(
    make_project: Callable[[str], Project],
) -> None:
    # With a backtracking engine '^(a+)+$' against 34 a's and a b takes 2^34 steps.
    p = make_project(
        f"""version: 1
processes:
  app:
    args: [{PY}, -c, "import time; print('a' * 34 + 'b', flush=True); time.sleep(600)"]
    healthcheck: {{log: '^(a+)+$', interval: 100ms, timeout: 1s, retries: 2, start_period: 1s}}
"""
    )  # the line never matches: unhealthy once the start period is over (a short one)
    assert p.run("start", "app", timeout=20)[0] == 0

    def line_stored() -> bool:
        lines = p.ok("logs", "app")["lines"]
        return [line["text"] for line in lines] == ["a" * 34 + "b"]

    assert wait_for(line_stored)
    code, env = p.run("status", "app", timeout=20)
    assert (code, env["data"]["status"]) == (0, "unhealthy")  # start waited for the verdict
    assert env["data"]["health"]["status"] == "unhealthy"
