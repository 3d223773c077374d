"""After planning: each rule's find text where the rule itself does not act, but a rule of
another scope would (sheet names, file names, the sheet references of formulas), or the
rule would with another `--stories` (comments, masters ...), or no rule would (the rest of
a formula, a defined name's own name). Each place is a `rule.uncovered` warning whose
suggestion says what covers it: a row to add to the rules file, in its own column order,
or the `--stories` word to add.

The look runs on the planned state (what the real run would write), so a place a rule
already changed is not reported again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from officecli.office_replace.commands import STORIES, UNCOVERED
from officecli.office_replace.formulas import formulas, sheet_references
from officecli.office_replace.found import Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule, RuleFile
from officecli.office_replace.stories import Story
from officecli.office_replace.textedit import window
from officecli.readers.errors import ReaderError

X = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


@dataclass(frozen=True)
class Cover:
    """What changes a place: rules of `scope` ('' : no rule), with `story` in --stories."""

    scope: str
    story: str = ""


SHEET_NAME, FILE_NAME, NOTHING = Cover("sheetname"), Cover("filename"), Cover("")


class Look:
    """Looks for the rules' find text in one file's places, and reports the uncovered ones."""

    def __init__(self, rules: RuleFile, stories: set[str], found: Found) -> None:
        self.file = rules
        self.stories = stories
        self.found = found
        self.rules_of: dict[Cover, list[Rule]] = {}

    def covered(self, rule: Rule, cover: Cover) -> bool:
        return (
            bool(cover.scope)
            and rule.applies_to(cover.scope)
            and cover.story in ("", *self.stories)
        )

    def uncovered(self, cover: Cover) -> list[Rule]:
        """The rules that do not act on a place of this cover."""
        if cover not in self.rules_of:
            self.rules_of[cover] = [r for r in self.file.rules if not self.covered(r, cover)]
        return self.rules_of[cover]

    def place(self, text: str, cover: Cover, what: str, *where: str) -> None:
        """Report each rule, not covering this place, that finds something in its text."""
        for rule in self.uncovered(cover):
            match = next(rule.finditer(text), None) if rule.may_match(text) else None
            if match is not None:
                self.report(rule, cover, what, window(text, match.start, match.end), *where)

    def report(self, rule: Rule, cover: Cover, what: str, context: str, *where: str) -> None:
        reasons, fixes = [], []
        if not cover.scope:
            reasons.append("which no rule changes")
            fixes.append("no rule changes it: edit it by hand")
        elif not rule.applies_to(cover.scope):
            reasons.append(f"which only a {cover.scope} rule changes")
            fixes.append(self.file.row_for(rule, cover.scope))
        if cover.story and cover.story not in self.stories:
            chosen = ",".join(s for s in STORIES if s in self.stories or s == cover.story)
            reasons.append(("and " if reasons else "") + "which --stories leaves out")
            fixes.append(f"add {cover.story} to --stories: --stories {chosen}")
        self.found.warn(
            UNCOVERED,
            f"rule {rule.id} ({rule.scope}) finds {rule.find!r} in {what}, " + " ".join(reasons),
            *where,
            expected=context,
            field=rule.id,
            suggestion="; ".join(fixes),
        )

    def stories_of(self, stories: Sequence[Story]) -> None:
        for story in stories:
            cover = Cover("text", story.story)
            if not self.uncovered(cover):
                continue
            try:
                for place, segments, silent in story.paragraphs():
                    if segments and not silent:
                        text = "".join(s.text for s in segments)
                        self.place(text, cover, f"{story.story} text", *story.where, place)
            except ReaderError as exc:
                self.unreadable(story.part, exc, *story.where)

    def unreadable(self, part: str, exc: ReaderError, *where: str) -> None:
        """A part no rule edits, that cannot be read: said, and the file still written."""
        self.found.warn(
            UNCOVERED,
            f"{part} could not be read to look for text no rule reaches: {exc.message}",
            *where,
            field=exc.code,
        )

    def workbook(self, pkg: EditablePackage, main: str, sheet_of: dict[str, str]) -> None:
        """Sheet names, defined names' own names, and every formula of the book."""
        book = pkg.xml(main)
        for sheet in book.iter(f"{{{X}}}sheet"):
            name = sheet.get("name") or ""
            self.place(name, SHEET_NAME, "a sheet name", "workbook", f"sheet {name!r}")
        for defined in book.iter(f"{{{X}}}definedName"):
            name = defined.get("name") or ""
            self.place(name, NOTHING, "a defined name", "workbook", f"defined name {name!r}")
        try:
            for formula in formulas(pkg, sheet_of):
                if formula.bare_name:
                    self.place(formula.text, SHEET_NAME, "a pivot source", *formula.where)
                else:
                    self.formula(formula.text, formula.where)
        except ReaderError as exc:
            self.unreadable("a part with formulas", exc, "workbook")

    def formula(self, text: str, where: tuple[str, ...]) -> None:
        """A match inside a sheet reference is covered by a sheetname rule; elsewhere in a
        formula (strings, names, numbers) by no rule."""
        spans = None
        for rule in self.file.rules:
            if not rule.may_match(text):
                continue
            covers: dict[Cover, str] = {}
            for m in rule.finditer(text):
                if spans is None:
                    spans = [(s, e) for s, e, _ in sheet_references(text)]
                inside = any(s < m.end and m.start < e for s, e in spans)
                cover = SHEET_NAME if inside else NOTHING
                covers.setdefault(cover, window(text, m.start, m.end))
            for cover, context in covers.items():
                if not self.covered(rule, cover):
                    self.report(rule, cover, "a formula", context, *where)
