"""`autostart: false` with real processes: `up`, `ci` and group starts leave such a process
alone unless one they start depends on it; `start NAME` and naming its namespace start it;
`status`, `why` and `explain` say why it does not run."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
CONFIG = f"""version: 1
processes:
  db: {{args: {SLEEP}, autostart: false}}
  api: {{args: {SLEEP}, depends_on: [db]}}
  tool: {{args: {SLEEP}, autostart: false}}
  debugger: {{args: {SLEEP}, autostart: false, namespace: debug}}
groups:
  tools: {{processes: [tool]}}
"""


def statuses(p: Project) -> dict[str, str]:
    return {row["name"]: row["status"] for row in p.ok("status")["processes"]}


def test_up_and_group_start_leave_autostart_false_alone(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    up = p.ok("up")
    assert sorted(row["name"] for row in up["processes"]) == ["api", "db"]  # db: api needs it
    assert statuses(p) == {
        "db": "running",
        "api": "running",
        "tool": "stopped",
        "debugger": "stopped",
    }
    tool = p.ok("status", "tool")
    assert tool["why"] == (
        "autostart: false: up, ci, start --all and group starts leave tool alone unless a "
        "process they start depends on it; `procler start tool` starts it"
    )
    assert p.ok("why", "tool")["why"].startswith("tool is stopped: autostart: false")
    assert len(p.marked_pids()) == 2
    assert p.ok("group", "start", "tools")["processes"] == []
    assert p.ok("start", "--all")["processes"] != []
    assert statuses(p)["tool"] == "stopped"
    assert p.ok("up", "-n", "debug")["processes"][0]["name"] == "debugger"  # its namespace named
    started = p.ok("start", "tool")
    assert (started["status"], statuses(p)["tool"]) == ("running", "running")
    assert p.ok("status", "tool")["why"] is None
    assert len(p.marked_pids()) == 4
    paragraph = p.ok("config", "explain")["paragraph"]
    assert (
        "tool runs" in paragraph and "(autostart: false) unless a process they start" in paragraph
    )
