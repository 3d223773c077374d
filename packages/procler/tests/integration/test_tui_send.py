"""The TUI's input line (`i`): a line typed for the process under the cursor goes to its
stdin through `procler send`; one without `stdin: true` shows STDIN_CLOSED and its key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project, wait_for
from procler_testkit.tui_pilot import SIZE, app_for, status_of, until, view_body

CONFIG = f"""
version: 1
processes:
  reader:
    args: [{PY}, -c, "import sys\\nfor line in sys.stdin:\\n    open('got.txt', 'a').write(line)"]
    stdin: true
  deaf:
    args: [{PY}, -c, "import time; time.sleep(600)"]
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
        made.ok("up")
        yield made
    finally:
        made.close()


async def test_a_line_typed_goes_to_the_process_stdin(project: Project) -> None:
    app = app_for(project)
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: app.table.row_count == 2 and status_of(app, "reader") == "running"
        )
        await pilot.press("i")
        await until(pilot, lambda: app.screen.__class__.__name__ == "Ask")
        await pilot.press(*"yes please", "enter")
        assert wait_for(lambda: (project.root / "got.txt").exists(), 20)
        assert wait_for(lambda: (project.root / "got.txt").read_text() == "yes please\n", 20)
        await pilot.press("down", "i", *"y", "enter")  # deaf: no stdin kept open
        body = await view_body(pilot, app, "error")
        assert body == (
            "STDIN_CLOSED: deaf does not keep its stdin open\n"
            "add `stdin: true` to processes.deaf in the config, then `procler restart deaf`"
        )
