"""The TUI's namespace and replicas columns, its namespace filter and its scale action,
against a real supervisor and real processes with replicas."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from procler_testkit.harness import PY, Project
from procler_testkit.tui_pilot import SIZE, app_for, palette_offers, status_of, until, view_body
from textual.pilot import Pilot
from textual.widgets import OptionList

from procler.tui.app import ProclerApp
from procler.tui.views import COLUMNS

pytestmark = pytest.mark.anyio

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
    namespace: [web, edge]
  worker:
    command: {PY} -c "import time; time.sleep(600)"
    replicas: 2
    namespace: jobs
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def column(app: ProclerApp, name: str) -> dict[str, str]:
    """Each shown process's cell in that column."""
    table, at = app.table, COLUMNS.index(name)
    return {
        str(table.get_row_at(i)[0]): str(table.get_row_at(i)[at]) for i in range(table.row_count)
    }


async def choose(pilot: Pilot[None], app: ProclerApp, offered: list[str], picked: str) -> None:
    """In the Choose dialog on top, check what it offers and pick one."""
    await until(pilot, lambda: type(app.screen).__name__ == "Choose")
    options = app.screen.query_one(OptionList)
    assert [
        str(options.get_option_at_index(i).prompt) for i in range(options.option_count)
    ] == offered
    await pilot.press(*["down"] * offered.index(picked), "enter")


async def test_namespaces_replicas_and_scale(make_project: Callable[[str], Project]) -> None:
    project = make_project(CONFIG)
    project.ok("start", "worker")
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: app.table.row_count == 3 and status_of(app, "worker-1") == "running"
        )
        assert column(app, "namespace") == {
            "api": "web, edge",
            "worker-0": "jobs",
            "worker-1": "jobs",
        }
        assert column(app, "replicas") == {"api": "", "worker-0": "2", "worker-1": "2"}

        every = ["(every namespace)", "web", "edge", "jobs"]
        await pilot.press("ctrl+n")
        await choose(pilot, app, every, "jobs")
        await until(pilot, lambda: list(column(app, "name")) == ["worker-0", "worker-1"])
        assert "· namespace jobs ·" in str(app.state_line.render())

        # scale from the palette, on an instance: its process gets the count
        await pilot.press("ctrl+p", *"scale")
        await until(pilot, lambda: palette_offers(app)[:1] == ["scale: how many instances (asks)"])
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "Ask")
        await pilot.press("ctrl+a", "ctrl+k", "3", "enter")
        await until(
            pilot,
            lambda: (
                column(app, "replicas") == dict.fromkeys(["worker-0", "worker-1", "worker-2"], "3")
            ),
        )
        await until(pilot, lambda: status_of(app, "worker-2") == "running")
        assert project.ok("status", "worker")["replicas"] == 3

        await pilot.press("ctrl+n")
        await choose(pilot, app, every, "(every namespace)")
        await until(pilot, lambda: app.table.row_count == 4)
        assert "namespace" not in str(app.state_line.render())
        await pilot.press("up")  # from worker-0 (the cursor stays on its process) to api
        assert app.current_name() == "api"
        await pilot.press("S", "enter")  # api has no replicas: the command says so
        body = await view_body(pilot, app, "error")
        refused = project.run("scale", "api", "1")[1]
        assert body == f"{refused['error_code']}: {refused['error']}\n{refused['suggestion']}"
