"""The web dashboard in a real browser: Playwright driving Debian's Chromium against a real
supervisor (`procler dashboard`), real processes, loopback only. Every page at a desktop's
size and a phone's, compared with screenshots a person reviewed."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from procler_testkit.dashboard import (
    CHROMIUM,
    PAGES,
    SIZES,
    difference,
    launch,
    logged_in,
    show,
    still,
)
from procler_testkit.harness import PY, Project, wait_for

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Locator, Page, Response

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
# Every page has something to show: a healthy process with a history, a completed one-shot,
# a scheduled one, a group, a recipe run, a snippet. No path of this machine in it (the
# config page shows the commands).
STACK = """
version: 1
processes:
  api:
    description: the HTTP API
    command: sh -c "echo 'api listening on 127.0.0.1:8000'; echo 'GET /health 200'; touch ready; exec sleep 600"
    healthcheck: {test: "test -e ready", interval: 0.2s}
    ports: [8000]
  migrate:
    command: echo migrated
    restart: "no"
  nightly:
    command: "true"
    schedule: {cron: "0 3 * * *"}
    namespace: jobs
groups:
  backend:
    processes: [api, migrate]
recipes:
  bounce:
    steps:
      - stop: api
      - start: api
snippets:
  greet:
    command: echo hello @{who}
    args: {who: {type: string, default: world}}
"""
REVIEWED = Path(__file__).parent / "__screenshots__" / "dashboard"
UPDATE = bool(os.environ.get("PROCLER_UPDATE_SCREENSHOTS"))  # write them anew, to review


@pytest.fixture
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        if os.environ.get("PROCLER_REQUIRE_TMUX"):  # CI installs both (.ci/people-deps.sh)
            pytest.fail("Chromium is not installed in CI")
        pytest.skip("Chromium is not installed (.ci/people-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = launch(pw)
        try:
            yield launched
        finally:
            launched.close()


def watched(page: Page) -> list[str]:
    """What goes wrong on the page: failed requests (a missing icon), script errors, and
    any window.confirm/alert (questions are asked inside the page)."""
    problems: list[str] = []

    def failed(response: Response) -> None:
        if response.status >= 400:
            problems.append(f"{response.status} {response.url}")

    def dialog(shown: Dialog) -> None:
        problems.append(f"window dialog: {shown.message}")
        shown.dismiss()

    page.on("response", failed)
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("dialog", dialog)
    return problems


def table_rows(page: Page, table: str) -> list[list[str]]:
    rows = page.locator(f"{table} tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def buttons(row: Locator) -> dict[str, bool]:
    """Each button of a row and whether it is enabled."""
    found = row.get_by_role("button")
    return {found.nth(i).inner_text(): found.nth(i).is_enabled() for i in range(found.count())}


def local_time(page: Page, iso: str) -> str:
    """An answer's timestamp as the browser writes local time (the hover text)."""
    return str(page.evaluate("(iso) => new Date(Date.parse(iso)).toLocaleString()", iso))


def test_dashboard_in_a_real_browser(browser: Browser, tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    try:
        login = project.ok("dashboard", "--port", "0")
        assert login["expires_in_seconds"] == 60.0
        page = browser.new_page()
        page.set_default_timeout(30_000)
        problems = watched(page)
        page.goto(login["url"])
        assert page.url == login["dashboard"]
        heads = page.locator("#processes thead th").all_inner_texts()
        assert heads == [
            "name",
            "status",
            "health",
            "pid",
            "uptime",
            "restarts",
            "cpu",
            "memory",
            "namespace",
            "next run",
            "last exit",
            "",
        ]
        row = page.locator('tr[data-name="api"]')
        assert row.locator(".status").inner_text() == "stopped"
        assert buttons(row) == {"start": True, "stop": False, "restart": False}
        loads: list[str] = []
        page.on("load", lambda _page: loads.append("load"))
        row.get_by_role("button", name="start", exact=True).click()
        page.wait_for_selector('tr[data-name="api"] .status-running')
        page.wait_for_selector('tr[data-name="api"] td.col-health .status-healthy')
        assert loads == []  # live from the event stream, no reload
        assert buttons(row) == {"start": False, "stop": True, "restart": True}
        status = project.ok("status", "api")
        cells = dict(zip(heads, row.locator("td").all_inner_texts(), strict=True))
        assert (cells["pid"], cells["restarts"], cells["namespace"]) == (
            str(status["pid"]),
            "0",
            "default",
        )
        assert re.fullmatch(r"\d+(\.\d)?s", cells["uptime"]), cells
        assert re.fullmatch(r"\d+\.\d%", cells["cpu"]) and cells["memory"].endswith(" MiB")

        page.goto(login["dashboard"] + "#/process/api")
        page.wait_for_selector("#logs div")
        # the logs come first, above the history tables
        assert page.evaluate(
            "document.querySelector('#logs').compareDocumentPosition("
            "document.querySelector('#history')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        page.fill("#search", "HELLO")
        assert page.locator("#logs div").all_inner_texts() == ["api says hello"]
        assert page.locator("#logs mark").all_inner_texts() == ["hello"]
        assert page.locator("#exits td").all_inner_texts() == ["no run has ended"]

        stop = page.locator("#info").get_by_role("button", name="stop", exact=True)
        stop.click()  # asked inside the page: No leaves it running
        page.wait_for_selector("dialog#ask[open]")
        assert page.locator("#ask-question").inner_text() == "Stop api?"
        page.locator("#ask-no").click()
        assert project.ok("status", "api")["status"] == "healthy"
        stop.click()
        page.locator("#ask-yes").click()
        page.wait_for_selector("#exits td:text('stop requested')")  # live, no reload
        ended = project.ok("history", "api")["exits"][0]
        exits = table_rows(page, "#exits")
        assert exits[0][1:] == ["1", "signal 15 (SIGTERM)", exits[0][3], "stop requested"]
        assert re.fullmatch(r"\d+(\.\d)?s", exits[0][3])
        at = page.locator("#exits time").first
        # the browser's local time on hover, relative in the cell
        assert at.get_attribute("title") == local_time(page, ended["ended_at"])
        assert re.fullmatch(r"just now|\d+ s ago", at.inner_text())
        page.wait_for_selector("#info .status-stopped")
        facts = page.locator("#facts dd")
        assert facts.nth(0).inner_text() == "-"  # no pid once stopped
        assert (
            page.locator("dd[data-fact='last exit']")
            .inner_text()
            .startswith("signal 15 (SIGTERM) ")
        )
        assert buttons(page.locator("#info")) == {"start": True, "stop": False, "restart": False}
        assert loads == []

        page.goto(login["dashboard"] + "#/")
        page.wait_for_selector('tr[data-name="api"] .status-stopped')
        assert project.ok("status", "api")["status"] == "stopped"

        page.goto(login["dashboard"] + "#/recipes")
        page.locator("#recipes").get_by_role("button", name="run").click()
        page.wait_for_selector(".run .run-status")
        run = project.ok("recipe", "runs")["runs"][0]
        status_of_run = page.locator(f'.run[data-run="{run["run_id"]}"] .run-status')
        assert status_of_run.inner_text() == "succeeded"

        page.goto(login["dashboard"] + "#/config")
        page.wait_for_selector("#explain code")
        paragraph = project.ok("config", "explain")["paragraph"]
        assert page.locator("#explain code").all_inner_texts() == paragraph.split("`")[1::2]
        assert "`" not in page.locator("#explain").inner_text()

        assert problems == []  # the icon included: no 404, no window.confirm
        config = project.root / ".procler" / "config.yaml"
        broken = CONFIG.replace("interval: 0.2s", "interval: sometimes")
        config.write_text(broken)
        line = broken.splitlines()[5]  # the file's line 6 (the text starts with a newline)
        column = line.index("sometimes") + 1
        page.reload()  # the same page, drawn again
        page.wait_for_selector("#findings li")
        findings = page.locator("#findings li").all_inner_texts()
        assert findings == [
            f"line 6, column {column}: processes.api.healthcheck.interval: "
            + project.run("reload", "--dry-run")[1]["data"]["errors"][0]["message"]
        ]
    finally:
        project.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """Every page has something to show; nothing moves once it is up."""
    made = Project(tmp_path_factory.mktemp("stack") / "proj", STACK)
    try:
        made.ok("up")  # not --wait: it takes a scheduled process for one never ready
        made.ok("wait", "migrate", "--for", "exited", "--timeout", "30s")
        made.ok("recipe", "run", "bounce")
        made.ok("wait", "api", "--for", "healthy", "--timeout", "30s")
        yield made
    finally:
        made.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_is_usable_and_looks_as_reviewed(
    browser: Browser, stack: Project, tmp_path: Path, name: str, size: str
) -> None:
    """No page is wider than the screen, every button can be reached, nothing fails to
    load; the page looks as its reviewed screenshot (PROCLER_UPDATE_SCREENSHOTS=1 writes
    them anew, to be looked at before they are committed)."""
    login = stack.ok("dashboard", "--port", "0")
    with logged_in(browser, login["url"], size) as page:
        problems = watched(page)
        show(page, login["dashboard"], name)
        width = SIZES[size][0]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for box in [b.bounding_box() for b in page.get_by_role("button").all()]:
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        for link in page.locator("header nav a").all():
            assert link.is_visible()
        shot = still(page)
        assert problems == []
    reviewed = REVIEWED / f"{name}-{size}.png"
    if UPDATE:
        reviewed.parent.mkdir(parents=True, exist_ok=True)
        reviewed.write_bytes(shot)
    seen = tmp_path / reviewed.name
    seen.write_bytes(shot)
    assert difference(shot, reviewed) == "", f"see {seen}"


def test_a_cross_origin_request_is_refused(browser: Browser, tmp_path: Path) -> None:
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


def test_the_stdin_box_and_both_checks(browser: Browser, tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", STDIN_CONFIG)
    try:
        project.ok("up")
        login = project.ok("dashboard", "--port", "0")
        page = browser.new_page()
        page.set_default_timeout(30_000)
        page.goto(login["url"])
        page.goto(login["dashboard"] + "#/process/reader")
        page.wait_for_selector("#stdin:not([hidden])")
        page.wait_for_selector("dd[data-fact='liveness'] .status-healthy")
        assert page.locator("dd[data-fact='health']").inner_text() == "no check"
        page.fill("#stdin-text", "from the browser")
        page.locator("#stdin").get_by_role("button", name="send").click()
        page.wait_for_selector("#stdin-sent:text('sent 17 bytes')")
        assert page.locator("#stdin-text").input_value() == ""
        got = project.root / "got.txt"
        assert wait_for(lambda: got.exists() and got.read_text() == "from the browser\n")
        page.goto(login["dashboard"] + "#/process/deaf")
        page.wait_for_selector("#info h2:has-text('deaf') .status-running")
        assert page.locator("#stdin").is_hidden()  # no stdin: true, no box
    finally:
        project.close()
