"""Replace in a Word package: body, headers and footers, foot- and endnotes, comments."""

from __future__ import annotations

from collections.abc import Sequence

from officecli.office_replace import wordml
from officecli.office_replace.found import Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule

RELATED_STORIES = (
    ("header", "headers"),
    ("footer", "headers"),
    ("footnotes", "footnotes"),
    ("endnotes", "footnotes"),
    ("comments", "comments"),
)


def replace_word(
    pkg: EditablePackage, rules: Sequence[Rule], stories: set[str], found: Found
) -> None:
    main = pkg.main_part()
    parts = [(main, "body")]
    for kind, story in RELATED_STORIES:
        parts += [(target, story) for target in pkg.targets(main, kind)]
    for part, story in parts:
        if story not in stories:
            continue
        label = "body" if part == main else part.rpartition("/")[2].removesuffix(".xml")
        if found.paragraphs(wordml.paragraphs(pkg.xml(part)), rules, label, story=story):
            pkg.mark(part)
