"""The stories of a Word package: body, headers and footers, foot- and endnotes, comments."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from officecli.office_replace import wordml
from officecli.office_replace.found import Paragraphs
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.stories import Story

RELATED_STORIES = (
    ("header", "headers"),
    ("footer", "headers"),
    ("footnotes", "footnotes"),
    ("endnotes", "footnotes"),
    ("comments", "comments"),
)


def word_stories(pkg: EditablePackage) -> Iterator[Story]:
    main = pkg.main_part()
    parts = [(main, "body")]
    for kind, story in RELATED_STORIES:
        parts += [(target, story) for target in pkg.targets(main, kind)]
    for part, story in parts:
        label = "body" if part == main else part.rpartition("/")[2].removesuffix(".xml")
        yield Story(story, part, (label,), partial(_paragraphs, pkg, part))


def _paragraphs(pkg: EditablePackage, part: str) -> Paragraphs:
    return wordml.paragraphs(pkg.xml(part))
