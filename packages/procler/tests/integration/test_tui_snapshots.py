"""SVG snapshots of the TUI's screens (pytest-textual-snapshot), against a real supervisor.

Each is taken where nothing on screen varies from run to run: no process is alive (so no
pid, uptime, CPU or memory is shown), nothing with a time is on screen, the supervisor
state is settled (none runs, or the feed is live), and an input's cursor does not blink.
`uv run --frozen pytest ... --snapshot-update` writes them again after a wanted change.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project
from procler_testkit.tui_pilot import (
    SIZE,
    CannedClient,
    SnapCompare,
    app_for,
    live_row,
    status_of,
    until,
)
from textual.pilot import Pilot
from textual.widgets import Input

from procler.tui.app import ProclerApp

# printer prints text that looks like markup, an ANSI-coloured line and a stderr line,
# then exits 0 (after the start grace period: a clean exit, not a failed start).
CONFIG = f"""
version: 1
processes:
  printer:
    command: {PY} -c "import sys, time; print('hello [bold]x[/] one', flush=True); print('\\x1b[31mred\\x1b[0m and \\x1b[1;32mbold green\\x1b[0m hello', flush=True); print('to stderr', file=sys.stderr, flush=True); time.sleep(0.3)"
    restart: "no"
  worker:
    command: {PY} -c "import time; time.sleep(600)"
    depends_on: [printer]
recipes:
  deploy:
    steps:
      - stop: worker
      - start: worker
snippets:
  greet:
    command: echo hello @{{who}}
    args: {{who: {{type: string, default: world}}}}
"""


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """printer has run and exited (its three lines are in the store); a supervisor runs.
    Shared: no test answers the dialog it opens, so none changes what the next one shows."""
    made = Project(tmp_path_factory.mktemp("printed") / "proj", CONFIG)
    try:
        made.ok("start", "printer")
        made.ok("wait", "printer", "--for", "exited", "--timeout", "20s")
        yield made
    finally:
        made.close()


def settled(app: ProclerApp, supervisor: str) -> Callable[[], bool]:
    """The table is loaded and the feed knows whether a supervisor runs."""
    return lambda: app.table.row_count == 2 and app.supervisor == supervisor


def still_cursor(app: ProclerApp) -> None:
    """The dialog's input cursor shown and still (it blinks every half second)."""
    field = app.screen.query_one(Input)
    field.cursor_blink = False
    field._cursor_visible = True


def test_snapshot_of_the_process_table(
    make_project: Callable[[str], Project], snap_compare: SnapCompare
) -> None:
    app = app_for(make_project(CONFIG))  # nothing ran: no supervisor, the state on disk

    async def loaded(pilot: Pilot[None]) -> None:
        await until(pilot, settled(app, "none"))

    assert snap_compare(app, terminal_size=SIZE, run_before=loaded)


def test_snapshot_of_the_help_screen(
    make_project: Callable[[str], Project], snap_compare: SnapCompare
) -> None:
    app = app_for(make_project(CONFIG))

    async def opened(pilot: Pilot[None]) -> None:
        await until(pilot, settled(app, "none"))
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen.id == "help")

    assert snap_compare(app, terminal_size=SIZE, run_before=opened)


def test_snapshot_of_the_log_pane(printed: Project, snap_compare: SnapCompare) -> None:
    """ANSI colours kept, markup-like text shown as it is, stderr in red, a search's
    matches highlighted (the second one current)."""
    app = app_for(printed)

    async def searched(pilot: Pilot[None]) -> None:
        await until(pilot, settled(app, "live"))
        await until(pilot, lambda: len(app.pane.entries) == 3)
        assert status_of(app, "printer") == "exited"
        app.pane.search("hello")
        await pilot.press("n")
        await until(pilot, lambda: app.pane.current == 1)

    assert snap_compare(app, terminal_size=SIZE, run_before=searched)


# The dialogs over the table, each reached by its keys: (keys, the screen they bring up).
DIALOGS: dict[str, list[tuple[tuple[str, ...], str]]] = {
    "details": [(("down", "d"), "TextView")],  # worker's: it never ran, so no time is shown
    "stop_confirmation": [(("down", "x"), "Confirm")],
    "scale": [(("down", "S"), "Ask")],
    "recipe_choice": [(("e",), "Choose")],
    "snippet_argument": [(("c",), "Choose"), (("enter",), "Ask")],
}


@pytest.mark.parametrize("dialog", list(DIALOGS))
def test_snapshot_of_a_dialog(printed: Project, snap_compare: SnapCompare, dialog: str) -> None:
    app = app_for(printed)

    async def opened(pilot: Pilot[None]) -> None:
        await until(pilot, settled(app, "live"))
        for keys, screen in DIALOGS[dialog]:
            await pilot.press(*keys)
            await until(pilot, lambda: type(app.screen).__name__ == screen)  # noqa: B023
        if screen == "Ask":
            still_cursor(app)

    assert snap_compare(app, terminal_size=SIZE, run_before=opened)


@pytest.fixture
def utc() -> Iterator[None]:
    """Local time is UTC, so the times shown do not depend on the machine."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_uptime_cpu_and_memory_are_refreshed_without_an_event(
    tmp_path: Path, snap_compare: SnapCompare
) -> None:
    """Nothing happens to the process, no event comes: its row is refreshed all the same,
    at least every 2 s (a status call, as the rows are made)."""
    assert ProclerApp.REFRESH_EVERY <= 2.0
    client = CannedClient(str(tmp_path / ".procler" / "config.yaml"), [live_row("api")], {})
    app = ProclerApp(client)

    def uptime() -> str:
        return str(app.table.get_row_at(0)[4]) if app.table.row_count else ""

    async def refreshed(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: uptime() == "5m13s" and app.supervisor == "none")
        client.rows = [
            live_row("api", uptime_seconds=343.4, cpu_percent=7.0, memory_rss_bytes=22 * 2**20)
        ]
        await until(pilot, lambda: uptime() == "5m43s", timeout=10)

    assert snap_compare(app, terminal_size=SIZE, run_before=refreshed)


def test_snapshot_of_the_details_view_with_a_last_exit(
    tmp_path: Path, snap_compare: SnapCompare, utc: None
) -> None:
    """A run stopped by SIGTERM: its last exit and history written out, no Python dict."""
    why = {
        "name": "api",
        "status": "stopped",
        "desired": "stopped",
        "why": "api is stopped because it was stopped (`procler stop api`)",
        "dependencies": [],
        "waiting_for": [],
        "last_exit": {
            "code": None,
            "signal": 15,
            "at": "2026-12-01T20:59:30Z",
            "reason": "stop requested",
        },
        "stderr": [],
        "restart_budget": {"policy": "on-failure", "restarts": 0, "max_restarts": 5, "left": 5},
    }
    history = {
        "name": "api",
        "health": [],
        "exits": [
            {
                "run": 1,
                "started_at": "2026-12-01T20:54:17Z",
                "ended_at": "2026-12-01T20:59:30Z",
                "duration_seconds": 313.2,
                "exit_code": None,
                "signal": 15,
                "reason": "stop requested",
            }
        ],
        "transitions": [],
    }
    row = live_row("api", status="stopped", pid=None, uptime_seconds=None, cpu_percent=None)
    row["memory_rss_bytes"] = None
    client = CannedClient(
        str(tmp_path / ".procler" / "config.yaml"), [row], {"why": why, "history": history}
    )
    app = ProclerApp(client)

    async def opened(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.table.row_count == 1 and app.supervisor == "none")
        await pilot.press("d")
        await until(pilot, lambda: app.screen.id == "details")

    assert snap_compare(app, terminal_size=SIZE, run_before=opened)
