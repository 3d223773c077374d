"""`autostart: false` with real processes: `up` leaves such a process alone unless one it
starts depends on it, and `config explain` says so. Every command's choice, and what
`status` and `why` say, is tested in process (tests/supervisor/test_autostart.py)."""

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


def test_up_leaves_autostart_false_alone_and_explain_says_so(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    up = p.ok("up")
    assert sorted(row["name"] for row in up["processes"]) == ["api", "db"]  # db: api needs it
    assert len(p.marked_pids()) == 2
    paragraph = p.ok("config", "explain")["paragraph"]
    assert (
        "tool runs" in paragraph and "(autostart: false) unless a process they start" in paragraph
    )
