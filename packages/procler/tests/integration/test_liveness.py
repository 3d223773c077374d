"""`liveness:` with real processes: a run whose liveness check keeps failing is ended and
its restart policy decides; `history` records the end as `reason: liveness`."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project, alive, wait_for

# Each run marks itself alive; the test removes the mark to make the liveness check fail.
MARKED = f"""[{PY}, -c, "import pathlib, time; pathlib.Path('alive').touch(); time.sleep(600)"]"""


def config(policy: str) -> str:
    return f"""version: 1
processes:
  api:
    args: {MARKED}
    healthcheck: {{exec: "true", interval: 200ms}}
    liveness: {{exec: "test -e alive", interval: 200ms, retries: 2}}
    restart: {{policy: {policy}, backoff: {{initial: 100ms}}}}
"""


def test_failing_liveness_restarts_the_process(make_project: Callable[[str], Project]) -> None:
    p = make_project(config("on-failure"))
    p.ok("start", "api")
    assert p.run("wait", "api", "--for", "healthy", "--timeout", "20s")[0] == 0
    first = p.ok("status", "api")
    assert first["liveness"]["kind"] == "exec"
    assert first["health"]["kind"] == "exec"
    assert wait_for((p.root / "alive").exists)
    (p.root / "alive").unlink()
    assert wait_for(lambda: p.ok("status", "api")["run"] == 2, 20)
    assert p.run("wait", "api", "--for", "healthy", "--timeout", "20s")[0] == 0
    now = p.ok("status", "api")
    assert (now["run"], now["restarts"], now["desired"]) == (2, 1, "running")
    assert not alive(first["pid"])
    assert alive(now["pid"]) and now["pid"] != first["pid"]
    exits = p.ok("history", "api")["exits"]
    assert (exits[0]["run"], exits[0]["reason"], exits[0]["signal"]) == (1, "liveness", 15)
    why = p.ok("why", "api")
    assert why["health"]["status"] == "healthy"
    assert wait_for(lambda: p.ok("why", "api")["liveness"]["status"] == "healthy", 20)
    assert p.ok("why", "api")["liveness"]["failures"] == 0


def test_failing_liveness_without_restart_leaves_it_failed(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(config("no"))
    p.ok("start", "api")
    pid = p.ok("status", "api")["pid"]
    assert wait_for((p.root / "alive").exists)
    (p.root / "alive").unlink()
    assert wait_for(lambda: p.ok("status", "api")["status"] == "failed", 20)
    after = p.ok("status", "api")
    assert (after["run"], after["desired"], after["last_exit"]["reason"]) == (
        1,
        "stopped",
        "liveness",
    )
    assert not alive(pid)
    assert p.marked_pids() == []
