"""What the TUI's pilot tests share: a project to act on, the app for a project, bounded
waits, what is shown."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.command import CommandList
from textual.widgets import Static

from procler.tui.app import ProclerApp
from procler.tui.client import Client
from procler_testkit.harness import PY, Project

SIZE = (120, 40)
# Processes, a recipe and a snippet for the actions (from their keys or from the palette).
ACTIONS = f"""
version: 1
processes:
  api:
    command: {PY} -c "import os, time; print('api says hello', os.getpid(), flush=True); time.sleep(600)"
  worker:
    command: {PY} -c "import time; time.sleep(599)"
    depends_on: [api]
recipes:
  deploy:
    steps:
      - stop: api
      - start: api
snippets:
  greet:
    command: echo hello @{{who}}
    args: {{who: {{type: string, default: world}}}}
"""


def app_for(project: Project, keymap: dict[str, str] | None = None) -> ProclerApp:
    return ProclerApp(Client(str(project.root / ".procler" / "config.yaml")), keymap)


async def until(pilot: Any, condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the app run until the condition holds (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(0.05)
    assert condition()


async def edit_config_when_idle(pilot: Any, app: ProclerApp, project: Project, text: str) -> None:
    """Write the config once the app has no command or refresh in flight: any supervisor
    command takes a changed config up (a late `status` refresh would apply the edit before
    the reload under test could show its diff)."""
    await until(
        pilot,
        lambda: (
            not [w for w in app.workers if not w.is_finished and w.group in ("rows", "commands")]
        ),
    )
    (project.root / ".procler" / "config.yaml").write_text(text)


async def view_body(pilot: Any, app: ProclerApp, view_id: str) -> str:
    """The text of the view on top once it is shown."""
    await until(pilot, lambda: app.screen.id == view_id and bool(app.screen.query("#body")))
    return str(app.screen.query_one("#body", Static).render())


def table_rows(app: ProclerApp) -> list[tuple[str, str]]:
    table = app.table
    return [
        (str(table.get_row_at(i)[0]), str(table.get_row_at(i)[1])) for i in range(table.row_count)
    ]


def status_of(app: ProclerApp, name: str) -> str:
    return next(r["status"] for r in app.rows if r["name"] == name)


def palette_offers(app: ProclerApp) -> list[str]:
    """The commands the open palette lists, in order."""
    found = app.screen.query(CommandList)
    if not found:
        return []
    listed = found.first()
    return [str(listed.get_option_at_index(i).hit.text) for i in range(listed.option_count)]
