"""Edit one Office file in memory: the changed parts as bytes, and what was found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agentcli.report import Finding
from officecli.office_replace.excel import replace_excel
from officecli.office_replace.files import Item
from officecli.office_replace.found import FAILED, Found
from officecli.office_replace.package import EditablePackage
from officecli.office_replace.rules import Rule
from officecli.office_replace.sheetnames import rename_sheets
from officecli.office_replace.slides import replace_slides
from officecli.office_replace.word import replace_word
from officecli.readers.errors import ReaderError

EDITORS = {"docx": replace_word, "xlsx": replace_excel, "pptx": replace_slides}


@dataclass
class Edited:
    item: Item
    changed: dict[str, bytes] = field(default_factory=dict)
    failed: str = ""  # why the file could not be read ('' when it could)


@dataclass
class RuleSet:
    text: list[Rule]
    sheetname: list[Rule]
    filename: list[Rule]

    @classmethod
    def of(cls, rules: Sequence[Rule]) -> RuleSet:
        return cls(
            *[[r for r in rules if r.applies_to(s)] for s in ("text", "sheetname", "filename")]
        )


def edit_file(item: Item, rules: RuleSet, stories: set[str], found: Found) -> Edited:
    """Apply the rules to one file; a file that cannot be read becomes a replace.failed finding."""
    if not item.kind:
        return Edited(item)
    try:
        with EditablePackage(item.source) as pkg:
            if rules.text:
                EDITORS[item.kind](pkg, rules.text, stories, found)
            if item.kind == "xlsx" and rules.sheetname:
                rename_sheets(pkg, pkg.main_part(), rules.sheetname, found)
            return Edited(item, pkg.changed_parts())
    except ReaderError as exc:
        found.findings.append(
            Finding(
                FAILED,
                "error",
                f"could not edit: {exc.message}",
                location=item.label,
                field=exc.code,
                suggestion=exc.suggestion,
            )
        )
        return Edited(item, failed=exc.code)
