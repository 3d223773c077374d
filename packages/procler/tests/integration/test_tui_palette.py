"""The TUI's actions from Textual's command palette (ctrl+p), against a real supervisor and
real processes: each command picked does what its key does."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from procler_testkit.harness import Project
from procler_testkit.tui_pilot import (
    ACTIONS,
    SIZE,
    app_for,
    edit_config_when_idle,
    offered,
    palette_offers,
    status_of,
    table_rows,
    until,
    view_body,
)
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Static

from procler.tui import key_bindings as keys
from procler.tui.app import ProclerApp

pytestmark = pytest.mark.anyio

TEXTUAL_COMMANDS = ["Keys", "Maximize", "Quit", "Screenshot", "Theme"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pid_of(app: ProclerApp, name: str) -> int | None:
    pid: int = next(r["pid"] for r in app.rows if r["name"] == name)
    return pid


def texts(app: ProclerApp) -> list[str]:
    return [e["text"] for e in app.pane.entries]


async def pick(pilot: Pilot[None], app: ProclerApp, typed: str, command: str) -> None:
    """Open the palette, type, and run the command listed first (which must be `command`;
    the palette highlights the first)."""
    await pilot.press("ctrl+p", *typed)
    await until(pilot, lambda: palette_offers(app)[:1] == [command])
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))


async def test_palette_lists_every_action_with_its_key(
    make_project: Callable[[str], Project],
) -> None:
    app = app_for(make_project(ACTIONS), {"stop": "k"})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 2)
        await pilot.press("ctrl+p")
        ours = [a.description for a in keys.ACTIONS if a.id != "command_palette"]
        # each provider's commands in its order; the providers in any order (a set)
        await until(pilot, lambda: sorted(palette_offers(app)) == sorted(ours + TEXTUAL_COMMANDS))
        assert [c for c in palette_offers(app) if c not in TEXTUAL_COMMANDS] == ours
        await pilot.press(*"asks first")
        await until(pilot, lambda: palette_offers(app) == ["stop (asks first)"])
        listed = app.screen.query_one(CommandList)
        assert offered(listed, 0).help == "key k"
        await pilot.press("escape", "question_mark")  # over a dialog: only Textual's own
        await until(pilot, lambda: app.screen.id == "help")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: bool(palette_offers(app)))
        assert palette_offers(app) == ["Keys", "Quit", "Screenshot", "Theme"]


async def test_palette_commands_do_what_their_keys_do(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(ACTIONS)
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 2)
        await pick(pilot, app, "start", "start")
        await until(pilot, lambda: status_of(app, "api") == "running")
        first = project.ok("status", "api")["pid"]
        # its line logged before the restart ends the run (running means it survived its
        # start, not that it has printed yet)
        said = [f"api says hello {first}"]
        await until(
            pilot, lambda: [ln["text"] for ln in project.ok("logs", "api")["lines"]] == said
        )
        await pick(pilot, app, "rest", "restart")
        await until(pilot, lambda: pid_of(app, "api") not in (first, None))
        assert project.ok("status", "api")["pid"] == pid_of(app, "api")
        await pilot.press("p")  # the previous run's logs (its key; the palette's is the same)
        await until(pilot, lambda: texts(app) == said)
        assert str(app.state_line.render()).endswith(" · run previous")
        await pilot.press("p")
        await pick(pilot, app, "asks", "stop (asks first)")
        await until(pilot, lambda: type(app.screen).__name__ == "Confirm")
        await pilot.press("y")
        await until(pilot, lambda: status_of(app, "api") == "stopped")
        assert project.ok("status", "api")["status"] == "stopped"

        await pick(pilot, app, "hide", "hide / show stopped")
        await until(pilot, lambda: app.table.row_count == 0)
        await pilot.press("h")  # its key undoes it
        await until(pilot, lambda: app.table.row_count == 2)
        await pick(pilot, app, "filt", "filter processes")
        await until(pilot, lambda: type(app.screen).__name__ == "Ask")
        await pilot.press(*"work", "enter")
        await until(pilot, lambda: table_rows(app) == [("worker", "stopped")])
        await pilot.press("slash", "ctrl+a", "ctrl+k", "enter")
        await until(pilot, lambda: app.table.row_count == 2)

        await pick(pilot, app, "graph", "dependency graph: start levels")
        assert await view_body(pilot, app, "graph") == "level 1: api\nlevel 2: worker"
        await pilot.press("escape")
        await pick(pilot, app, "why", "why: the details view")  # of the cursor's: worker
        body = await view_body(pilot, app, "details")
        assert body.splitlines()[0] == (
            "worker is stopped because nothing asked it to run; `procler start worker`"
        )
        await pilot.press("escape")

        await pick(pilot, app, "foll", "follow logs on / off")
        await pick(pilot, app, "wrap", "wrap log lines on / off")
        assert (app.following, app.wrapping, app.pane.wrap) == (False, True, True)
        state = str(app.state_line.render())
        assert state == "2 processes · follow off · wrap · run current"

        await pick(pilot, app, "reci", "run a recipe")
        await until(pilot, lambda: type(app.screen).__name__ == "Choose")
        await pilot.press("enter")
        body = await view_body(pilot, app, "recipe")
        run_id = project.ok("recipe", "runs")["runs"][0]["run_id"]
        assert body == f"run {run_id}: succeeded\nstop-1: succeeded\nstart-2: succeeded"
        await pilot.press("escape")
        await until(pilot, lambda: status_of(app, "api") == "running")
        await pick(pilot, app, "snip", "run a snippet (asks for its arguments)")
        await until(pilot, lambda: type(app.screen).__name__ == "Choose")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "Ask")
        await pilot.press("ctrl+a", "ctrl+k", *"palette", "enter")
        assert await view_body(pilot, app, "snippet") == "exit 0\nhello palette\n"
        await pilot.press("escape")

        await edit_config_when_idle(
            pilot, app, project, ACTIONS.replace("sleep(599)", "sleep(598)")
        )
        await pick(pilot, app, "relo", "reload the config (shows the diff first)")
        await until(pilot, lambda: type(app.screen).__name__ == "Confirm")
        question = str(app.screen.query_one("#question", Static).render())
        assert (
            question
            == "Apply this reload?\nadded: -\nchanged: worker (command)\nremoved: -\nunchanged: 1"
        )
        await pilot.press("y")
        await until(
            pilot,
            lambda: not [w for w in app.workers if w.group == "commands" and not w.is_finished],
        )
        assert project.ok("reload", "--dry-run")["changed"] == []  # applied
