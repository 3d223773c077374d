"""The web dashboard in a real browser: Playwright driving Debian's Chromium against a real
supervisor (`procler dashboard`), real processes, loopback only."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.harness import PY, Project, wait_for

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# api becomes healthy 1.5 s after it starts: long enough to be seen running first.
CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import pathlib, time; print('api says hello', flush=True); print('other line', flush=True); time.sleep(1.5); pathlib.Path('ready').touch(); time.sleep(600)"
    healthcheck: {{test: "test -e ready", interval: 0.2s}}
recipes:
  bounce:
    steps:
      - stop: api
      - start: api
"""
SHOTS = os.environ.get("PROCLER_DASHBOARD_SCREENSHOTS")  # a folder: save the main pages


@pytest.fixture
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        if os.environ.get("PROCLER_REQUIRE_TMUX"):  # CI installs both (.ci/people-deps.sh)
            pytest.fail("Chromium is not installed in CI")
        pytest.skip("Chromium is not installed (.ci/people-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"dashboard-{name}.png"), full_page=True)


def table_rows(page: Any, table: str) -> list[list[str]]:
    rows = page.locator(f"{table} tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def health_rows(history: dict[str, Any]) -> list[list[str]]:
    """`procler history`'s health moves as the page shows them (a cell's text is trimmed)."""
    return [
        [m["at"], str(m["run"]), m["from"], m["to"], m["reason"].strip()] for m in history["health"]
    ]


def test_dashboard_in_a_real_browser(browser: Any, tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    try:
        login = project.ok("dashboard", "--port", "0")
        assert login["expires_in_seconds"] == 60.0
        page = browser.new_page()
        page.set_default_timeout(30_000)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(login["url"])
        assert page.url == login["dashboard"]
        row = page.locator('tr[data-name="api"]')
        assert row.locator(".status").inner_text() == "stopped"
        loads: list[str] = []
        page.on("load", lambda _page: loads.append("load"))
        row.get_by_role("button", name="start", exact=True).click()
        page.wait_for_selector('tr[data-name="api"] .status-running')
        page.wait_for_selector('tr[data-name="api"] .status-healthy')
        assert loads == []  # live from the event stream, no reload
        shot(page, "processes")

        page.goto(login["dashboard"] + "#/process/api")
        page.wait_for_selector("#logs div")
        page.fill("#search", "HELLO")
        assert page.locator("#logs div").all_inner_texts() == ["api says hello"]
        assert page.locator("#logs mark").all_inner_texts() == ["hello"]
        history = project.ok("history", "api")
        assert history["health"][0]["to"] == "healthy"
        assert table_rows(page, "#health-history") == health_rows(history)
        assert page.locator("#exits td").all_inner_texts() == ["no run has ended"]

        page.locator("#info").get_by_role("button", name="stop", exact=True).click()
        page.wait_for_selector("#exits td:text('stop requested')")  # live, no reload
        history = project.ok("history", "api")
        ended = history["exits"][0]
        assert table_rows(page, "#exits") == [
            [ended["ended_at"], "1", "", "15", f"{ended['duration_seconds']}s", "stop requested"]
        ]
        page.wait_for_selector("#health-history td:text('run ended')")
        page.wait_for_selector("#info .status-stopped")
        assert page.locator("#info p").first.inner_text() == "pid - · restarts 0 · run 1"
        assert table_rows(page, "#health-history") == health_rows(project.ok("history", "api"))
        assert loads == []
        shot(page, "process")

        page.goto(login["dashboard"] + "#/")
        page.wait_for_selector('tr[data-name="api"] .status-stopped')
        assert project.ok("status", "api")["status"] == "stopped"

        page.goto(login["dashboard"] + "#/recipes")
        page.locator('tr[data-recipe="bounce"]').get_by_role("button", name="run").click()
        page.wait_for_selector(".run .run-status")
        run = project.ok("recipe", "runs")["runs"][0]
        status = page.locator(f'.run[data-run="{run["run_id"]}"] .run-status')
        assert status.inner_text() == "succeeded"
        shot(page, "recipes")

        config = project.root / ".procler" / "config.yaml"
        broken = CONFIG.replace("interval: 0.2s", "interval: sometimes")
        config.write_text(broken)
        line = broken.splitlines()[5]  # the file's line 6 (the text starts with a newline)
        column = line.index("sometimes") + 1
        page.goto(login["dashboard"] + "#/config")
        page.wait_for_selector("#findings li")
        findings = page.locator("#findings li").all_inner_texts()
        assert findings == [
            f"line 6, column {column}: processes.api.healthcheck.interval: "
            + project.run("reload", "--dry-run")[1]["data"]["errors"][0]["message"]
        ]
        shot(page, "config")
    finally:
        project.close()


def test_a_cross_origin_request_is_refused(browser: Any, tmp_path: Path) -> None:
    """A page of another origin posts to the API (a simple request, no preflight): 403,
    and nothing happens."""
    project = Project(tmp_path / "proj", CONFIG)
    try:
        login = project.ok("dashboard", "--port", "0")
        context = browser.new_context()
        page = context.new_page()
        page.goto(login["url"])  # logged in: the session cookie is in this context
        other = context.new_page()
        other.set_content("<p>elsewhere</p>")
        target = login["dashboard"].replace("/dashboard/", "/v1/commands/start")
        with other.expect_response(target) as refused:  # bounded by the default timeout
            other.evaluate(
                """(url) => fetch(url, {method: "POST", mode: "no-cors", credentials: "include",
                     body: '{"values": {"name": "api"}}'})""",
                target,
            )
        assert refused.value.status == 403
        assert project.ok("status", "api")["status"] == "stopped"
    finally:
        project.close()


# reader keeps its stdin open and writes each line it reads to got.txt; deaf does not.
STDIN_CONFIG = f"""
version: 1
processes:
  reader:
    args: [{PY}, -c, "import sys\\nfor line in sys.stdin:\\n    open('got.txt', 'a').write(line)"]
    stdin: true
    liveness: {{exec: "true", interval: 0.2s}}
  deaf:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""


def test_the_stdin_box_and_both_checks(browser: Any, tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", STDIN_CONFIG)
    try:
        project.ok("up")
        login = project.ok("dashboard", "--port", "0")
        page = browser.new_page()
        page.set_default_timeout(30_000)
        page.goto(login["url"])
        page.goto(login["dashboard"] + "#/process/reader")
        page.wait_for_selector("#stdin:not([hidden])")
        page.wait_for_selector("#checks:text('liveness: healthy')")
        assert page.locator("#checks").inner_text() == (
            "readiness (healthcheck): no check · liveness: healthy"
        )
        page.fill("#stdin-text", "from the browser")
        page.locator("#stdin").get_by_role("button", name="send").click()
        page.wait_for_selector("#stdin-sent:text('sent 17 bytes')")
        assert page.locator("#stdin-text").input_value() == ""
        got = project.root / "got.txt"
        assert wait_for(lambda: got.exists() and got.read_text() == "from the browser\n")
        page.goto(login["dashboard"] + "#/process/deaf")
        page.wait_for_selector("#info h2:text('deaf') .status-running")
        assert page.locator("#stdin").is_hidden()  # no stdin: true, no box
    finally:
        project.close()
