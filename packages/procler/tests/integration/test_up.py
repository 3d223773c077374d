"""`up` is idempotent: a one-shot that completed under this supervisor, with the same
definition, is not run again (`--rerun` forces it; a changed definition runs)."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project

STACK = f"""
version: 1
processes:
  migrate:
    args: [{PY}, -c, "print('migrated')"]
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [{{name: migrate, condition: completed_successfully}}]
"""


def runs(data: dict) -> list[tuple[str, str, int]]:  # type: ignore[type-arg]
    return [(p["name"], p["status"], p["run"]) for p in data["processes"]]


def test_up_does_not_rerun_a_completed_one_shot(make_project: Callable[[str], Project]) -> None:
    p = make_project(STACK)
    assert runs(p.ok("up")) == [("migrate", "exited", 1), ("api", "running", 1)]
    again = p.ok("up")
    assert runs(again) == [("migrate", "exited", 1), ("api", "running", 1)]
    assert [proc.get("already_completed") for proc in again["processes"]] == [True, None]
    assert runs(p.ok("up", "--rerun")) == [("migrate", "exited", 2), ("api", "running", 1)]
    changed = STACK.replace("print('migrated')", "print('migrated again')")
    (p.root / ".procler" / "config.yaml").write_text(changed)
    assert runs(p.ok("up")) == [("migrate", "exited", 3), ("api", "running", 1)]
