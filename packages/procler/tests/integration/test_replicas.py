"""Replicas with real processes: each instance on its own port, selected by the process's
name or its own, scaled up and down, and depended on as all instances or `min` of them."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, alive

SERVER = Path(__file__).parent / "scripts" / "server.py"
FAST = "interval: 100ms, timeout: 1s, retries: 1"
PATIENT = f"{FAST}, start_period: 10s"
STEP = 7


def free_ports(count: int) -> int:
    """A base port with base + i * STEP free for each i < count (loopback)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + count * STEP > 65535:
            continue
        try:
            for i in range(count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", base + i * STEP))
        except OSError:
            continue
        return base
    raise AssertionError("no free run of ports")


def answers(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def pids(data: dict) -> dict[str, int]:  # type: ignore[type-arg]
    return {i["name"]: i["pid"] for i in data["instances"]}


def test_replicas_with_ports_scale_up_and_down(make_project: Callable[[str], Project]) -> None:
    base = free_ports(3)
    p = make_project(
        f"""
version: 1
processes:
  web:
    args: [{PY}, {SERVER}, "${{PROCLER_PORT}}"]
    replicas: 2
    port_base: {base}
    port_step: {STEP}
    healthcheck: {{tcp: {{port: "${{PROCLER_PORT}}"}}, {PATIENT}}}
  solo:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""
    )
    started = p.ok("start", "web")
    assert (started["name"], started["status"], started["replicas"]) == ("web", "healthy", 2)
    assert (started["counts"], list(pids(started))) == ({"healthy": 2}, ["web-0", "web-1"])
    assert [answers(base), answers(base + STEP)] == [True, True]
    lines = p.ok("logs", "web")["lines"]
    assert sorted((line["process"], line["text"]) for line in lines) == [
        ("web-0", f"listening on {base}"),
        ("web-1", f"listening on {base + STEP}"),
    ]
    before = pids(started)
    one = p.ok("restart", "web-1")
    assert (one["name"], one["status"], one["run"]) == ("web-1", "healthy", 2)
    # the instance's port survives its restart
    assert [line["text"] for line in p.ok("logs", "web-1")["lines"]] == [
        f"listening on {base + STEP}"
    ]
    status = p.ok("status", "web")
    assert pids(status)["web-0"] == before["web-0"]

    up = p.ok("scale", "web", "3")
    assert (up["added"], up["removed"], up["previous"], up["replicas"]) == (["web-2"], [], 2, 3)
    assert [i["status"] for i in up["instances"]] == ["healthy", "healthy", "healthy"]
    assert answers(base + 2 * STEP) is True
    kept = pids(up)
    assert kept["web-0"] == before["web-0"]
    again = p.ok("scale", "web", "3")
    assert (again["added"], again["removed"], pids(again)) == ([], [], kept)

    down = p.ok("scale", "web", "1")
    assert (down["added"], down["removed"], pids(down)) == (
        [],
        ["web-1", "web-2"],
        {"web-0": kept["web-0"]},
    )
    assert [alive(kept["web-1"]), alive(kept["web-2"])] == [False, False]
    assert [i["name"] for i in p.ok("status")["processes"]] == ["web-0", "solo"]

    code, env = p.run("scale", "solo", "2")
    assert (code, env["error_code"]) == (2, "NOT_REPLICATED")
    stopped = p.ok("stop", "web")
    assert (stopped["status"], stopped["replicas"]) == ("stopped", 1)


def test_depends_on_every_instance_or_at_least_min(make_project: Callable[[str], Project]) -> None:
    sleeper = f'[{PY}, -c, "import time; time.sleep(600)"]'
    p = make_project(
        f"""
version: 1
processes:
  worker:
    args: {sleeper}
    replicas: 2
    healthcheck: {{exec: "test ${{PROCLER_REPLICA}} = 0", {FAST}}}
  some:
    args: {sleeper}
    depends_on: [{{name: worker, condition: healthy, min: 1}}]
  every:
    args: {sleeper}
    depends_on: [{{name: worker, condition: healthy}}]
"""
    )
    some = p.ok("start", "some")
    assert (some["name"], some["status"]) == ("some", "running")
    assert [(d["name"], d["status"]) for d in some["dependencies"]] == [
        ("worker-0", "healthy"),
        ("worker-1", "unhealthy"),
    ]
    code, env = p.run("start", "every")
    assert (code, env["error_code"], env["data"]["waiting"]) == (1, "DEPENDENCY_FAILED", "every")
    assert env["data"]["blocking"]["name"] == "worker-1"
    assert p.ok("status", "every")["status"] == "stopped"
