"""A one-shot that completed in this session is not run again; `daemon stop` ends the
session (real processes and supervisors: the migrations file counts every run). The rest
of the session's rules (start named or as a dependency, recipes, --rerun, down, the dry
run) are tested in process: supervisor/test_one_shot_sessions.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, supervisors_of, wait_for

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'


def stack(tmp_path: Path) -> str:
    return f"""
version: 1
processes:
  db:
    args: {SLEEP}
  redis:
    args: {SLEEP}
  migrate:
    args: [{PY}, -c, "open('{tmp_path}/migrations', 'a').write('ran\\\\n')"]
    restart: {{policy: "no"}}
    depends_on: [db]
  api:
    args: {SLEEP}
    depends_on: [redis, {{name: migrate, condition: completed_successfully}}]
"""


def migrations(tmp_path: Path) -> int:
    return len((tmp_path / "migrations").read_text().splitlines())


def test_a_completed_one_shot_runs_again_only_in_a_new_session(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(stack(tmp_path))
    p.ok("up")
    assert migrations(tmp_path) == 1
    assert p.ok("start", "migrate")["already_completed"] is True
    assert migrations(tmp_path) == 1
    # `daemon stop` ends the session: the next supervisor's `up` runs it again
    p.ok("daemon", "stop")
    assert wait_for(lambda: supervisors_of(p.root) == [])
    p.ok("up")
    assert migrations(tmp_path) == 2
    assert [(r["name"], r["status"]) for r in p.ok("status")["processes"]] == [
        ("db", "running"),
        ("redis", "running"),
        ("migrate", "exited"),
        ("api", "running"),
    ]
