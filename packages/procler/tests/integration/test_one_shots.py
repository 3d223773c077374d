"""A one-shot that completed in this session is not run again by `start` (named or as a
dependency), by `up`, or by a recipe's `start` step; `--rerun` runs it; a start of a
running process touches nothing else; `down` and `daemon stop` end the session (real
processes: the migrations file counts every run)."""

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
recipes:
  deploy:
    steps:
      - stop: api
      - start: api
"""


def migrations(tmp_path: Path) -> int:
    return len((tmp_path / "migrations").read_text().splitlines())


def test_a_completed_one_shot_runs_again_only_when_asked_or_in_a_new_session(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(stack(tmp_path))
    p.ok("up")
    assert migrations(tmp_path) == 1
    for _ in range(2):
        again = p.ok("start", "api")
        assert again["already_running"] is True
    p.ok("stop", "api")
    started = p.ok("start", "api")  # its dependency completed: not run again
    assert started["status"] == "running"
    assert {d["name"]: d.get("already_completed") for d in started["dependencies"]} == {
        "db": None,
        "redis": None,
        "migrate": True,
    }
    run = p.ok("recipe", "run", "deploy")
    assert run["status"] == "succeeded"
    assert migrations(tmp_path) == 1
    # a start of a running process touches nothing else
    p.ok("stop", "redis")
    assert p.ok("start", "api")["already_running"] is True
    assert p.ok("status", "redis")["status"] == "stopped"
    # named, too; --rerun runs it
    assert p.ok("start", "migrate")["already_completed"] is True
    assert migrations(tmp_path) == 1
    assert p.ok("start", "migrate", "--rerun")["status"] == "exited"
    assert migrations(tmp_path) == 2
    # `down` ends the session: the next `up` runs the one-shots again
    p.ok("down")
    p.ok("up")
    assert migrations(tmp_path) == 3
    # so does `daemon stop`
    p.ok("daemon", "stop")
    assert wait_for(lambda: supervisors_of(p.root) == [])
    p.ok("up")
    assert migrations(tmp_path) == 4
    assert [(r["name"], r["status"]) for r in p.ok("status")["processes"]] == [
        ("db", "running"),
        ("redis", "running"),
        ("migrate", "exited"),
        ("api", "running"),
    ]


def test_the_dry_run_plays_the_steps_in_order_and_names_the_one_shots_it_runs(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(stack(tmp_path))
    p.ok("up")
    planned = p.ok("recipe", "run", "deploy", "--dry-run")
    assert [(s["id"], s["plan"], s.get("runs_one_shots")) for s in planned["steps"]] == [
        ("stop-1", "api is running: stop will stop it", None),
        (
            "start-2",
            "db is running: start will leave it running; redis is running: start will leave "
            "it running; migrate is exited: completed; start will not run it again (--rerun); "
            "api will be stopped (after stop-1): start will start it",
            [],
        ),
    ]
    p.ok("down")  # a new session: migrate would run again
    planned = p.ok("recipe", "run", "deploy", "--dry-run")
    assert planned["steps"][1]["runs_one_shots"] == ["migrate"]
    assert planned["steps"][1]["plan"].endswith("start will start it (runs one-shot migrate)")
    assert p.ok("recipe", "runs")["runs"] == []  # nothing ran
    assert [r["status"] for r in p.ok("status")["processes"]] == [
        "stopped",
        "stopped",
        "exited",  # its last run, which the next `up` runs again
        "stopped",
    ]
