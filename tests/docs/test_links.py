"""README is a front door, not the manual: it stays short, and every relative link in it and
in docs/ (and in AGENTS.md and CONTRIBUTING.md) leads to a file the repository has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from generated_docs import ROOT

README_MAX_LINES = 220
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "AGENTS.md",
        ROOT / "CONTRIBUTING.md",
        *(ROOT / "docs").rglob("*.md"),
    ]
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text: str) -> str:
    """The text without fenced code blocks and code spans, where brackets are code."""
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.M | re.S)
    return re.sub(r"(`+).*?\1", "", text, flags=re.S)


def relative_targets(text: str) -> list[str]:
    """Every link target of the text that names a file of the repository (its anchor cut)."""
    targets = []
    for target in LINK.findall(prose(text)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor in the same page
        targets.append(target.split("#", 1)[0])
    return targets


def broken_links(page: Path) -> list[str]:
    return [
        target
        for target in relative_targets(page.read_text("utf-8"))
        if not (page.parent / target).exists()
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    assert broken_links(page) == []


def test_readme_stays_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES
    assert {"docs/procler/README.md", "docs/office/README.md"} <= set(
        relative_targets("\n".join(lines))
    )


def test_the_link_reader_sees_links_and_skips_code_urls_and_anchors() -> None:
    text = (
        'See [a](docs/a.md#part), ![pic](img/p.png "title") and [b](../b.md).\n'
        "`[not](code.md)` [web](https://example.org) [here](#top) [mail](mailto:x@y)\n"
        "```md\n[fenced](nope.md)\n```\n"
    )
    assert relative_targets(text) == ["docs/a.md", "img/p.png", "../b.md"]
