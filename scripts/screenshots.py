"""The guide's pictures (docs/images/, shown in docs/procler/tui-and-dashboard.md), made anew (`make screenshots`): the web dashboard in Debian's
Chromium (Playwright) and the TUI (Textual's SVG screenshots), on a copy of
examples/quickstart started for the purpose, then stopped.

The dashboard's changing values (pids, times, CPU, memory) are pinned as its tests pin
them (procler_testkit.dashboard), so running it again changes a picture only when the
page changed; the TUI shows the stack as it is at that moment.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packages" / "procler" / "tests"))  # procler_testkit

from procler_testkit.dashboard import launch, logged_in, show, still  # noqa: E402

OUT = ROOT / "docs" / "images"
PROCLER = str(Path(sys.executable).parent / "procler")
DASHBOARD = (  # (page, size, file)
    ("processes", "wide", "dashboard-processes.png"),
    ("process", "wide", "dashboard-process.png"),
    ("processes", "phone", "dashboard-phone.png"),
)


def procler(root: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [PROCLER, *args], cwd=root, capture_output=True, text=True, timeout=120, check=True
    )
    data: dict[str, object] = json.loads(done.stdout)["data"]
    return data


def dashboard(root: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            for name, size, file in DASHBOARD:
                login = procler(root, "dashboard", "--port", "0")
                with logged_in(browser, str(login["url"]), size) as page:
                    show(page, str(login["dashboard"]), name)
                    (OUT / file).write_bytes(still(page))
                print(OUT / file)
        finally:
            browser.close()


async def tui(root: Path) -> None:
    """The table with api's logs, then its details view."""
    from procler.tui.app import ProclerApp
    from procler.tui.client import Client

    app = ProclerApp(Client(str(root / ".procler" / "config.yaml")))
    async with app.run_test(size=(120, 32)) as pilot:
        for _ in range(200):  # bounded: 10 s
            if app.supervisor == "live" and app.table.row_count and app.pane.entries:
                break
            await pilot.pause(0.05)
        await pilot.press("down")  # api: its logs
        await pilot.pause(1.0)
        app.save_screenshot(str(OUT / "tui.svg"))
        await pilot.press("d")
        for _ in range(200):
            if app.screen.id == "details":
                break
            await pilot.pause(0.05)
        await pilot.pause(0.5)
        app.save_screenshot(str(OUT / "tui-details.svg"))
    print(OUT / "tui.svg", OUT / "tui-details.svg")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="procler-screenshots-") as folder:
        root = Path(folder) / "quickstart"
        shutil.copytree(ROOT / "examples" / "quickstart", root)
        try:
            procler(root, "up", "--wait", "--timeout", "60s")
            dashboard(root)
            asyncio.run(tui(root))
        finally:
            subprocess.run([PROCLER, "daemon", "stop"], cwd=root, capture_output=True, timeout=60)


if __name__ == "__main__":
    main()
