"""`procler tui` driven by Textual's pilot against a real supervisor and real processes."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import HISTORY, PY, Project, wait_for
from procler_testkit.tui_pilot import (
    ACTIONS,
    SIZE,
    app_for,
    edit_config_when_idle,
    local,
    status_of,
    table_rows,
    until,
    view_body,
)
from textual.widgets import Static

from agentcli.table import duration
from procler.tui.screens import TextView

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('hello [bold]x[/] one', flush=True); print('\\x1b[31mred\\x1b[0m hello', flush=True); time.sleep(600)"
  worker:
    command: {PY} -c "import time; time.sleep(600)"
    depends_on: [api]
  broken:
    command: /nonexistent/program
    restart: "no"
"""
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Project]:
    made = Project(tmp_path / "proj", CONFIG)
    monkeypatch.chdir(made.root)
    try:
        yield made
    finally:
        made.close()


async def test_table_shows_every_process_from_the_supervisor(project: Project) -> None:
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 3)
        assert table_rows(app) == [("api", "stopped"), ("worker", "stopped"), ("broken", "stopped")]


async def test_start_and_stop_with_confirmation(project: Project) -> None:
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 3)
        await pilot.press("s")
        await until(pilot, lambda: status_of(app, "api") == "running")
        assert project.ok("status", "api")["status"] == "running"
        await pilot.press("x")
        await until(pilot, lambda: app.screen.__class__.__name__ == "Confirm")
        await pilot.press("n")  # no: nothing happens
        await until(pilot, lambda: app.screen.__class__.__name__ != "Confirm")
        assert project.ok("status", "api")["status"] == "running"
        await pilot.press("x", "y")
        await until(pilot, lambda: status_of(app, "api") == "stopped")
        assert project.ok("status", "api")["status"] == "stopped"


async def test_failed_action_shows_error_and_suggestion(project: Project) -> None:
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 3)
        await pilot.press("down", "down", "s")  # broken: its program does not exist
        body = await view_body(pilot, app, "error")
        failed = project.run("start", "broken")[1]
        assert body == f"{failed['error_code']}: {failed['error']}\n{failed['suggestion']}"


async def test_filter_and_hide_stopped(project: Project) -> None:
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 3)
        await pilot.press("slash", *"WORK", "enter")
        await until(pilot, lambda: app.table.row_count == 1)
        assert table_rows(app) == [("worker", "stopped")]
        await pilot.press("slash", "ctrl+a", "ctrl+k", "enter")  # cleared
        await until(pilot, lambda: app.table.row_count == 3)
        project.ok("start", "api")
        app.refresh_rows()
        await until(pilot, lambda: status_of(app, "api") == "running")
        await pilot.press("h")
        await until(pilot, lambda: app.table.row_count == 1)
        assert table_rows(app) == [("api", "running")]


async def test_logs_are_plain_text_with_search(project: Project) -> None:
    project.ok("start", "api")
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.pane
        await until(pilot, lambda: len(pane.entries) == 2)
        shown = [strip.text for strip in pane.lines]
        assert shown == ["hello [bold]x[/] one", "red hello"]  # markup kept as text
        red = pane.lines[1]
        assert [
            seg.style.color.name
            for seg in red
            if seg.text == "red" and seg.style and seg.style.color
        ] == ["color(1)"]
        await pilot.press("ctrl+f", *"hello", "enter")
        await until(pilot, lambda: pane.found == [(0, 0), (1, 4)])
        assert pane.current == 0
        await pilot.press("n")
        assert pane.current == 1
        await pilot.press("n")
        assert pane.current == 0
        await pilot.press("N")
        assert pane.current == 1


async def test_details_graph_and_help_views(project: Project) -> None:
    app = app_for(project, {"stop": "k"})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 3)
        await pilot.press("down", "d")
        body = await view_body(pilot, app, "details")
        assert body.splitlines()[:8] == [
            "worker is stopped because nothing asked it to run; `procler start worker`",
            "",
            "status       stopped (desired: stopped)",
            "needs        api started: stopped (waiting)",
            "waiting for  api started",
            "last exit    none yet",
            "restarts     0 of 5 (on-failure), 5 left",
            "stderr       -",
        ]
        await pilot.press("escape", "g")
        body = await view_body(pilot, app, "graph")
        assert body == "level 1: api, broken\nlevel 2: worker"
        await pilot.press("escape", "question_mark")
        lines = (await view_body(pilot, app, "help")).splitlines()
        assert "             k  stop (asks first)" in lines
        assert "             /  filter processes" in lines  # the key typed, not its name
        assert "             ?  key bindings" in lines
        assert isinstance(app.screen, TextView)


PAGED = f"""
version: 1
processes:
  many:
    command: {PY} -c "import time; [print('line', i, flush=True) for i in range(500)]; time.sleep(600)"
  other:
    command: {PY} -c "import time; print('other says hi', flush=True); time.sleep(600)"
"""


async def test_logs_paged_and_interleaved(make_project: Callable[[str], Project]) -> None:
    project = make_project(PAGED)
    project.ok("start", "many")
    project.ok("start", "other")
    assert wait_for(lambda: len(project.ok("logs", "many", "--tail", "500")["lines"]) == 500)
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.pane
        await until(pilot, lambda: len(pane.entries) == 200)
        texts = [e["text"] for e in pane.entries]
        assert (texts[0], texts[-1]) == ("line 300", "line 499")
        await pilot.press("o")
        await until(pilot, lambda: pane.entries[-1]["text"] == "line 299")
        assert (len(pane.entries), pane.entries[0]["text"], pane.older) == (
            200,
            "line 100",
            True,
        )
        await pilot.press("o")
        await until(pilot, lambda: pane.entries[-1]["text"] == "line 99")
        assert (len(pane.entries), pane.entries[0]["text"], pane.older) == (
            100,
            "line 0",
            False,
        )
        await pilot.press("o")  # nothing older: stays
        assert app.log_page == 2
        await pilot.press("O", "O")
        await until(pilot, lambda: pane.entries[-1]["text"] == "line 499")
        await pilot.press("space", "down", "space")  # both selected: interleaved by time
        await until(pilot, lambda: "other says hi" in [e["text"] for e in pane.entries])
        assert pane.prefixed is True
        assert {e["name"] for e in pane.entries} == {"many", "other"}
        stamps = [e["ts"] for e in pane.entries]
        assert stamps == sorted(stamps)
        assert pane.lines[-1].text.startswith(("many | ", "other | "))


LIVE = f"""
version: 1
processes:
  ticker:
    command: {PY} -c "import itertools, time; [(print('tick', i, flush=True), time.sleep(0.2)) for i in itertools.count()]"
  victim:
    command: {PY} -c "import time; time.sleep(600)"
    restart: "no"
"""


async def test_live_from_the_event_stream(make_project: Callable[[str], Project]) -> None:
    """No key pressed: a process dying, new log lines and the supervisor going away and
    coming back all reach the screen through the event stream."""
    project = make_project(LIVE)
    project.ok("start", "ticker")
    victim = project.ok("start", "victim")["pid"]
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 2 and bool(app.pane.entries))
        seen = len(app.pane.entries)
        await until(pilot, lambda: len(app.pane.entries) >= seen + 3)  # followed live
        texts = [e["text"] for e in app.pane.entries]
        assert texts[-3:] == [f"tick {int(texts[-3].split()[1]) + i}" for i in range(3)]
        os.kill(victim, signal.SIGKILL)
        await until(pilot, lambda: status_of(app, "victim") == "failed")
        assert project.ok("status", "victim")["status"] == "failed"
        project.ok("daemon", "stop")
        await until(pilot, lambda: app.banner.has_class("shown"))
        await until(pilot, lambda: status_of(app, "ticker") == "stopped")  # from the disk
        project.ok("start", "ticker")  # a new supervisor
        await until(pilot, lambda: not app.banner.has_class("shown"))
        await until(pilot, lambda: status_of(app, "ticker") == "running")


async def test_recipe_snippet_and_reload_actions(make_project: Callable[[str], Project]) -> None:
    project = make_project(ACTIONS)
    project.ok("start", "api")
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 2)
        await pilot.press("e")
        await until(pilot, lambda: type(app.screen).__name__ == "Choose")
        await pilot.press("enter")
        body = await view_body(pilot, app, "recipe")
        run_id = project.ok("recipe", "runs")["runs"][0]["run_id"]
        assert body == f"run {run_id}: succeeded\nstop-1: succeeded\nstart-2: succeeded"
        await pilot.press("escape", "c")
        await until(pilot, lambda: type(app.screen).__name__ == "Choose")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "Ask")
        await pilot.press("ctrl+a", "ctrl+k", *"bob; rm -rf /", "enter")
        body = await view_body(pilot, app, "snippet")
        assert body == "exit 0\nhello bob; rm -rf /\n"
        await pilot.press("escape")
        await edit_config_when_idle(
            pilot, app, project, ACTIONS.replace("sleep(599)", "sleep(598)")
        )
        await pilot.press("R")
        await until(pilot, lambda: type(app.screen).__name__ == "Confirm")
        question = str(app.screen.query_one("#question", Static).render())
        assert (
            question
            == "Apply this reload?\nadded: -\nchanged: worker (command)\nremoved: -\nunchanged: 1"
        )


async def test_details_view_shows_health_history_and_last_exits(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(HISTORY)
    project.ok("start", "flaky")
    project.ok("start", "probed")
    assert wait_for(lambda: project.ok("status", "flaky")["run"] == 2)
    project.ok("wait", "probed", "--for", "unhealthy", "--timeout", "20s")
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table.row_count == 2)
        await pilot.press("d")
        body = (await view_body(pilot, app, "details")).splitlines()
        ended = project.ok("history", "flaky")["exits"][0]
        assert body[body.index("health history: none") :] == [
            "health history: none",
            "last exits, newest first:",
            f"  {local(ended['ended_at'])}  run 1  exit code 3 after "
            f"{duration(ended['duration_seconds'])}  exit code 3; restart 1/5 in 0.1s",
        ]
        last_exit = next(line for line in body if line.startswith("last exit "))
        assert last_exit == (
            f"last exit    exit code 3 at {local(ended['ended_at'])}: "
            "exit code 3; restart 1/5 in 0.1s"
        )
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.id != "details")
        await pilot.press("down", "d")
        body = (await view_body(pilot, app, "details")).splitlines()
        at = [m["at"] for m in project.ok("history", "probed")["health"]]
        assert body[body.index("health history, newest first:") :] == [
            "health history, newest first:",
            f"  {local(at[0])}  run 1  healthy -> unhealthy  health check failed 1 times: exit 1: ",
            f"  {local(at[1])}  run 1  starting -> healthy  health check passed: exit 0: ",
            f"  {local(at[2])}  run 1  stopped -> starting  run started",
            "last exits: none",
        ]
