"""`liveness:` with a real process: a run whose liveness check keeps failing is ended (its
process is gone) and, with no restart policy, left failed; the restart and what history and
why say of it are tested in process (tests/supervisor/test_start_answers.py)."""

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
