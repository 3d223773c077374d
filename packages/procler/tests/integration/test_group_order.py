"""A Procler 0.3.2 file whose group lists its processes in start order, with no depends_on:
`group start` starts them in that order, as 0.3.2 did (real processes), and validate says,
at the list, that the other commands do not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project


def test_group_start_follows_the_group_list_order(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    # each fails at once unless the one listed before it has started (or completed)
    p = make_project(f"""
processes:
  db:
    command: {PY} -c "open('{tmp_path}/db.started', 'w'); import time; time.sleep(600)"
  migrate:
    command: /bin/sh -c "test -e {tmp_path}/db.started && touch {tmp_path}/migrated"
    restart: "no"
  api:
    command: /bin/sh -c "test -e {tmp_path}/migrated && exec sleep 600"
groups:
  backend:
    processes: [db, migrate, api]
""")
    started = p.ok("group", "start", "backend")
    assert [(r["name"], r["status"]) for r in started["processes"]] == [
        ("db", "running"),
        ("migrate", "exited"),
        ("api", "running"),
    ]
    assert [r["restarts"] for r in p.ok("status")["processes"]] == [0, 0, 0]
    # a one-shot in the list: started is not completed, and the other commands ignore the list
    warnings = p.ok("config", "validate")["warnings"]
    assert [(w["line"], w["path"], w["message"], w["suggestion"]) for w in warnings] == [
        (
            12,
            "groups.backend.processes",
            "group backend lists the one-shot migrate before api: `procler group start "
            "backend` starts api once migrate has started, not completed, and `up`, `start` "
            "and recipes do not wait for migrate at all",
            "to make api wait until migrate has completed, everywhere, add to api: "
            "depends_on: [{name: migrate, condition: completed_successfully}]",
        ),
    ]
