"""How much text a rule set may write: a bound per story (one part, or one name) and per
file, so that rules that feed each other (`a` -> `aa`, then `a` -> `aa` again: the text
doubles with each) end in exit 2 naming them, not in a run that eats the machine.

Every replacement is charged what it writes: its length, and at least MIN_CHARGE, so that
rules that write little (nothing, or what they found, or `a` for `b` and back) cannot repeat
without bound: each replacement is also a finding in the report. A story may be charged at
most `factor` times the characters it held, a file `factor` times the characters of its
stories together; a story shorter than STORY_FLOOR characters counts as that long, a
file shorter than FILE_FLOOR too. Characters are counted as the stories are read, so the
bound grows with the text seen so far and the check costs nothing ahead of the edit.
Rules that do not feed each other write about as much as the text they match, far below
the bound; a chain doubles its writes with each rule and crosses it after a few.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NoReturn

from officecli.office_replace.commands import FILE_FLOOR, MIN_CHARGE, STORY_FLOOR
from officecli.office_replace.errors import GrowthError
from officecli.office_replace.rules import Match, Rule, splice

MAX_NAMED = 10


def cost(rule: Rule, matches: Sequence[Match]) -> int:
    """What these replacements of `rule` write."""
    if not rule.template:  # one replacement text for every match
        return len(matches) * max(MIN_CHARGE, len(rule.replace))
    return sum(max(MIN_CHARGE, len(m.replacement)) for m in matches)


def renamed(
    name: str, rules: Sequence[Rule], growth: Growth, story: str
) -> Iterator[tuple[Rule, str, str]]:
    """(rule, name before, name after) for each rule, in order, that changes a name (of a
    sheet or a file: one story of its own)."""
    growth.begin(story)
    growth.seen(name)
    for rule in rules:
        matches = list(rule.finditer(name)) if rule.may_match(name) else []
        if matches:
            growth.charge(rule, cost(rule, matches))
            new = splice(name, matches)
            if new != name:
                yield rule, name, new
                name = new


class Growth:
    """What the rules wrote into one file, and into the story being edited."""

    def __init__(self, label: str, factor: int) -> None:
        self.label = label
        self.factor = factor
        self.read = self.written = 0  # the file's
        self.story = ""
        self.story_read = self.story_written = 0
        self.writers: dict[str, int] = {}  # rule id -> characters written in the file
        self.story_writers: dict[str, int] = {}  # ... in the story

    def begin(self, story: str) -> None:
        """Start counting a new story (a part, or a sheet or file name)."""
        self.story, self.story_read, self.story_written = story, 0, 0
        self.story_writers = {}

    def seen(self, text: str) -> None:
        self.story_read += len(text)
        self.read += len(text)

    def charge(self, rule: Rule, written: int) -> None:
        """Count what `rule` is about to write; over either bound is GrowthError, before it
        is written."""
        for writers in (self.writers, self.story_writers):
            writers[rule.id] = writers.get(rule.id, 0) + written
        self.story_written += written
        self.written += written
        if self.story_written > self.factor * max(self.story_read, STORY_FLOOR):
            where = f"{self.label} :: {self.story}"
            self._refuse(
                where, self.story_writers, self.story_written, self.story_read, STORY_FLOOR
            )
        if self.written > self.factor * max(self.read, FILE_FLOOR):
            self._refuse(self.label, self.writers, self.written, self.read, FILE_FLOOR)

    def _refuse(
        self, where: str, writers: dict[str, int], written: int, read: int, floor: int
    ) -> NoReturn:
        ids = list(writers)
        basis = f"{read:,} characters" + (f" (counted as {floor:,})" if read < floor else "")
        named = ", ".join(ids[:MAX_NAMED]) + (
            f" and {len(ids) - MAX_NAMED} more" if len(ids) > MAX_NAMED else ""
        )
        limit = self.factor * max(read, floor)
        raise GrowthError(
            f"rules {named} would write {written:,} characters into {where}, more than "
            f"--max-growth {self.factor} times its {basis} allows: a rule finds what an "
            "earlier rule wrote (a chain, or rules that undo each other)",
            data={"location": where, "rules": ids, "limit": limit, "written": written},
        )
