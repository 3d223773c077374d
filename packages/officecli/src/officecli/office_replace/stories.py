"""A story: the text of one part under one `--stories` word, and where the report places
it. Editing and the look for text no rule reaches walk the same stories (`kinds.STORIES`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from officecli.office_replace.found import Found, Paragraphs
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule


@dataclass
class Story:
    story: str  # the --stories word: body, headers, footnotes, comments, notes, charts, masters
    part: str  # the part that holds the text
    where: tuple[str, ...]  # its place in the report, before each paragraph's own
    read: Callable[[], Paragraphs]  # (place, segments, silent) in document order
    name: str = ""  # what the growth bound calls it ('' : its place)

    @property
    def label(self) -> str:
        return self.name or " :: ".join(self.where) or self.part

    def paragraphs(self) -> Paragraphs:
        return self.read()

    def edit(self, pkg: EditablePackage, rules: Sequence[Rule], found: Found) -> None:
        """Apply the rules to every paragraph; mark the part if anything changed."""
        found.growth.begin(self.label)
        if found.paragraphs(self.read(), rules, *self.where, story=self.story):
            pkg.mark(self.part)
