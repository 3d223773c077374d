"""Edit one Office file in memory: the changed parts as bytes, and what was found (each
replacement, and then the rules' find text in places no rule of the set reaches)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from agentcli.report import Finding
from officecli.office_replace.commands import FAILED
from officecli.office_replace.excel import excel_stories, sheets
from officecli.office_replace.files import Item
from officecli.office_replace.found import Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule, RuleFile
from officecli.office_replace.sheetnames import rename_sheets
from officecli.office_replace.slides import slide_stories
from officecli.office_replace.stories import Story
from officecli.office_replace.uncovered import FILE_NAME, Look
from officecli.office_replace.word import word_stories
from officecli.readers.errors import ReaderError

STORIES_OF: dict[str, Callable[[EditablePackage], Iterator[Story]]] = {
    "docx": word_stories,
    "xlsx": excel_stories,
    "pptx": slide_stories,
}


@dataclass
class Edited:
    item: Item
    changed: dict[str, bytes] = field(default_factory=dict)
    failed: str = ""  # why the file could not be read ('' when it could)


@dataclass
class RuleSet:
    file: RuleFile
    text: list[Rule]
    sheetname: list[Rule]
    filename: list[Rule]

    @classmethod
    def of(cls, file: RuleFile) -> RuleSet:
        rules: Sequence[Rule] = file.rules
        by_scope = [
            [r for r in rules if r.applies_to(s)] for s in ("text", "sheetname", "filename")
        ]
        return cls(file, *by_scope)


def edit_file(item: Item, rules: RuleSet, stories: set[str], found: Found) -> Edited:
    """Apply the rules to one file; a file that cannot be read becomes a replace.failed finding."""
    look = Look(rules.file, stories, found)
    if item.selected and item.output is not None:
        look.place(item.output.stem, FILE_NAME, "the file name", "file name")
    if not item.kind:
        return Edited(item)
    try:
        with EditablePackage(item.source) as pkg:
            every = list(STORIES_OF[item.kind](pkg))
            for story in every:
                if rules.text and story.story in stories:
                    story.edit(pkg, rules.text, found)
            if item.kind == "xlsx":
                main = pkg.main_part()
                sheet_of = {part: name for name, part in sheets(pkg, main)}
                if rules.sheetname:
                    rename_sheets(pkg, main, rules.sheetname, found, sheet_of)
                look.workbook(pkg, main, sheet_of)
            look.stories_of(every)
            return Edited(item, pkg.changed_parts())
    except ReaderError as exc:
        found.findings.append(
            Finding(
                FAILED,
                "error",
                f"could not edit: {exc.message}",
                location=item.label,
                field=exc.code,
                suggestion=f"{exc.suggestion}; or add --continue-on-error to write the other files",
            )
        )
        return Edited(item, failed=exc.code)
