"""CONTRIBUTING.md stays short, and every make target it names is one the Makefile has."""

from __future__ import annotations

import re

from generated_docs import ROOT

TEXT = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
MAKEFILE = (ROOT / "Makefile").read_text("utf-8")


def named_targets(text: str) -> set[str]:
    """The targets of every `make ...` in the text: the words after `make` up to the first
    that is no target name (a VAR=value, an option, the end of the code span)."""
    found = set()
    for words in re.findall(r"\bmake((?: [a-z][a-z-]*)+)", text):
        found |= set(words.split())
    return found


def makefile_targets(text: str) -> set[str]:
    return set(re.findall(r"^([a-z][a-z-]*):", text, re.M))


def test_every_make_target_it_names_exists() -> None:
    named = named_targets(TEXT)
    assert {"demo", "test", "sync", "lint", "types", "bench", "bench-compare", "docs"} <= named
    assert named - makefile_targets(MAKEFILE) == set()


def test_the_target_reader_sees_a_missing_target() -> None:
    assert named_targets("run `make lint types` then make bench-compare BASE=x") == {
        "lint",
        "types",
        "bench-compare",
    }
    assert named_targets("`make docz`") - makefile_targets(MAKEFILE) == {"docz"}


def test_it_stays_short() -> None:
    assert TEXT.count("\n") <= 120
