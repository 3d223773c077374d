"""Replicas with real processes: each instance listens on its own port and logs as itself,
and a scale down ends real processes. Naming, scaling answers and `min` dependencies are
tested in process (tests/supervisor/test_replicas_ops.py)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def pids(data: dict[str, Any]) -> dict[str, int]:
    return {i["name"]: i["pid"] for i in data["instances"]}


def test_each_instance_listens_on_its_own_port_and_a_scale_down_ends_real_processes(
    make_project: Callable[[str], Project],
) -> None:
    base = free_ports(2)
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
"""
    )
    started = p.ok("start", "web")
    assert (started["status"], list(pids(started))) == ("healthy", ["web-0", "web-1"])
    assert [answers(base), answers(base + STEP)] == [True, True]
    lines = p.ok("logs", "web")["lines"]
    assert sorted((line["process"], line["text"]) for line in lines) == [
        ("web-0", f"listening on {base}"),
        ("web-1", f"listening on {base + STEP}"),
    ]
    one = p.ok("restart", "web-1")
    assert (one["status"], one["run"]) == ("healthy", 2)
    # the instance's port survives its restart
    assert [line["text"] for line in p.ok("logs", "web-1")["lines"]] == [
        f"listening on {base + STEP}"
    ]
    dropped = pids(p.ok("status", "web"))["web-1"]
    down = p.ok("scale", "web", "1")
    assert (down["removed"], alive(dropped), answers(base + STEP)) == (["web-1"], False, False)
    assert p.marked_pids() == [pids(down)["web-0"]]
