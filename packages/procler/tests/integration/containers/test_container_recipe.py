"""The seed article's deploy recipe, as written: stop -> wait -> migrate in the database
container (exec) -> start, through a real supervisor and a real container of each engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from procler_testkit.engine_fixtures import Engine
from procler_testkit.engine_helpers import unique
from procler_testkit.harness import PY, Project

SLEEPER = f'{PY} -c "import time; time.sleep(600)"'


def test_the_seed_deploy_recipe_works_as_written(
    make_project: Callable[[str], Project], container: Callable[..., Any], engine: Engine
) -> None:
    name = unique()
    db = container(name)
    # the migration tool the recipe calls, inside the database container
    script = "printf '#!/bin/sh\\necho migrated \"$@\"\\n' > /bin/alembic && chmod +x /bin/alembic"
    assert db.exec_run(["sh", "-c", script]).exit_code == 0
    project = make_project(
        f"""version: 1
vars:
  DB_CONTAINER: {name}
processes:
  api:
    command: {SLEEPER}
  worker:
    command: {SLEEPER}
recipes:
  deploy:
    description: "Graceful deployment"
    on_error: stop
    steps:
      - stop: worker
      - stop: api
      - wait: 2s
      - exec: "alembic upgrade head"
        context: {engine.name}
        container: ${{DB_CONTAINER}}
      - start: api
      - start: worker
"""
    )
    project.ok("start", "worker")
    project.ok("start", "api")
    run = project.ok("recipe", "run", "deploy")
    assert [(s["kind"], s["target"], s["status"], s["output"]) for s in run["steps"]] == [
        ("stop", "worker", "succeeded", "worker is stopped"),
        ("stop", "api", "succeeded", "api is stopped"),
        ("wait", "2s", "succeeded", "waited 2s"),
        ("exec", "alembic upgrade head", "succeeded", "migrated upgrade head\n"),
        ("start", "api", "succeeded", "api is running"),
        ("start", "worker", "succeeded", "worker is running"),
    ]
    assert run["status"] == "succeeded"
