"""The web dashboard in Debian's Chromium, driven by Playwright: a browser, a page logged in
at a viewport, each dashboard page by name, and screenshots made comparable (what changes
from run to run pinned) and compared with reviewed ones. The tests and
scripts/screenshots.py (README's pictures) both drive it."""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",  # the same glyphs on every run
]
SIZES = {"wide": (1400, 900), "phone": (390, 844)}
# Each page: where it is, and what shows it is drawn (its data in).
PAGES = {
    "processes": ("#/", "#processes tbody tr"),
    "process": ("#/process/api", "#history #exits"),
    "groups": ("#/groups", "#groups tbody tr"),
    "recipes": ("#/recipes", ".run, #runs p.empty"),
    "snippets": ("#/snippets", "form.args, p.empty"),
    "config": ("#/config", "#explain"),
}
# What differs from one run to the next, set to one value: times, pids, resources, run ids.
PIN = """() => {
  const set = (selector, text) => {
    for (const node of document.querySelectorAll(selector)) {
      if (node.textContent !== "-") node.textContent = text;
    }
  };
  for (const node of document.querySelectorAll("time")) {
    node.removeAttribute("title");
    node.textContent = Number(node.dataset.at) > Date.now() ? "in 9 h" : "1 min ago";
  }
  set("[data-started]", "5m13s");
  set("td.col-pid, dd[data-fact=pid]", "4242");
  set("td.col-cpu, dd[data-fact=cpu]", "0.5%");
  set("td.col-memory, dd[data-fact=memory]", "20.0 MiB");
  set("#exits td[data-label='ran for']", "2.5s");
  set(".run-id", "bounce-0a1b2c3d");
}"""
CHANNEL = 40  # a pixel differs when one of its channels moves by more than this
TOLERANCE = 0.005  # the share of pixels that may differ (font smoothing, antialiasing)


def launch(pw: Playwright) -> Browser:
    assert CHROMIUM is not None
    return pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)


@contextmanager
def logged_in(browser: Browser, url: str, size: str) -> Iterator[Page]:
    """A page of a new browser context at this viewport, logged in with url, its clock
    faked (flowing) so a screenshot can stop every timer of the page."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        context.clock.install()
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        yield page
    finally:
        context.close()


def show(page: Page, dashboard: str, name: str) -> None:
    """Go to a page by name and wait until its data is drawn."""
    where, ready = PAGES[name]
    page.goto(dashboard + where)
    page.wait_for_selector(ready)
    page.wait_for_selector("#live.on")


def still(page: Page) -> bytes:
    """A full-page screenshot with every timer stopped and the changing values pinned."""
    page.clock.pause_at(datetime.now() + timedelta(seconds=1))
    page.evaluate(PIN)
    shot = page.screenshot(full_page=True, animations="disabled", caret="hide")
    page.clock.resume()
    return shot


def difference(actual: bytes, reviewed: Path) -> str:
    """Why actual is not the reviewed screenshot ("" when it is, within the tolerance)."""
    from PIL import Image, ImageChops

    if not reviewed.exists():
        return f"no reviewed screenshot at {reviewed}"
    got = Image.open(io.BytesIO(actual)).convert("RGB")
    want = Image.open(reviewed).convert("RGB")
    if got.size != want.size:
        return f"size {got.size}, reviewed {want.size}"
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > CHANNEL else 0)
    changed = diff.histogram()[255]
    share = changed / (got.size[0] * got.size[1])
    return "" if share <= TOLERANCE else f"{share:.2%} of the pixels differ"
