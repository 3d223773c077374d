"""What the TUI's pilot tests share: a project to act on, the app for a project, bounded
waits, what is shown."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import Any, Protocol

from textual.app import App
from textual.command import Command, CommandList, DiscoveryHit, Hit
from textual.pilot import Pilot
from textual.widgets import Static

from procler.tui.app import ProclerApp
from procler.tui.client import Answer, Client
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


def local(iso: str) -> str:
    """An answer's timestamp as the TUI shows it: local time, the date only if not today."""
    at = datetime.fromisoformat(iso).astimezone()
    return at.strftime("%H:%M:%S" if at.date() == date.today() else "%Y-%m-%d %H:%M:%S")


class SnapCompare(Protocol):
    """pytest-textual-snapshot's `snap_compare` fixture: the app's screen after
    `run_before`, compared with the reviewed SVG."""

    def __call__(
        self,
        app: App[None],
        *,
        terminal_size: tuple[int, int],
        run_before: Callable[[Pilot[None]], Awaitable[None]],
    ) -> bool: ...


def app_for(project: Project, keymap: dict[str, str] | None = None) -> ProclerApp:
    return ProclerApp(Client(str(project.root / ".procler" / "config.yaml")), keymap)


async def until(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the app run until the condition holds (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(0.05)
    assert condition()


async def edit_config_when_idle(
    pilot: Pilot[None], app: ProclerApp, project: Project, text: str
) -> None:
    """Write the config once the app has no command or refresh in flight: any supervisor
    command takes a changed config up (a late `status` refresh would apply the edit before
    the reload under test could show its diff), so the periodic refresh is paused too."""
    app.refresher.pause()
    await pilot.pause(0.2)  # a tick posted before the pause is handled meanwhile
    await until(
        pilot,
        lambda: (
            not [w for w in app.workers if not w.is_finished and w.group in ("rows", "commands")]
        ),
    )
    (project.root / ".procler" / "config.yaml").write_text(text)


async def view_body(pilot: Pilot[None], app: ProclerApp, view_id: str) -> str:
    """The text of the view on top once it is shown."""
    await until(pilot, lambda: app.screen.id == view_id and bool(app.screen.query("#body")))
    return str(app.screen.query_one("#body", Static).render())


def table_rows(app: ProclerApp) -> list[tuple[str, str]]:
    table = app.table
    return [
        (str(table.get_row_at(i)[0]), str(table.get_row_at(i)[1])) for i in range(table.row_count)
    ]


def status_of(app: ProclerApp, name: str) -> str:
    status: str = next(r["status"] for r in app.rows if r["name"] == name)
    return status


def palette_offers(app: ProclerApp) -> list[str]:
    """The commands the open palette lists, in order."""
    found = app.screen.query(CommandList)
    if not found:
        return []
    listed = found.first()
    return [str(offered(listed, i).text) for i in range(listed.option_count)]


def offered(listed: CommandList, index: int) -> Hit | DiscoveryHit:
    """The palette's hit at this place of its list."""
    option = listed.get_option_at_index(index)
    assert isinstance(option, Command)  # the palette lists each hit as a Command
    return option.hit


class CannedClient(Client):
    """The TUI's client answering from canned data (no supervisor): what is shown is then
    exactly what the test says, live values included. `rows` may be changed meanwhile."""

    def __init__(self, config: str, rows: list[dict[str, Any]], answers: dict[str, Any]) -> None:
        super().__init__(config)
        self.rows = rows
        self.answers = answers  # command -> its data

    def run(self, command: str, **arguments: Any) -> Answer:
        if command not in self.answers:
            return Answer({"success": False, "error": f"{command}: not canned"}, 3)
        return Answer({"success": True, "data": self.answers[command]}, 0)

    def processes(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.rows]

    def logs(self, names: list[str], *, run: str | None, page: int) -> Answer:
        return Answer({"success": True, "data": {"lines": [], "older": False}}, 0)


def live_row(name: str, **values: Any) -> dict[str, Any]:
    """A status row of a running process, as `procler status` answers it."""
    return {
        "name": name,
        "status": "running",
        "pid": 4242,
        "uptime_seconds": 313.0,
        "restarts": 0,
        "cpu_percent": 2.5,
        "memory_rss_bytes": 21 * 2**20,
        "namespaces": ["default"],
        "replica_of": None,
        **values,
    }
