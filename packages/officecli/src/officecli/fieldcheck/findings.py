"""Building findings for a rule: where (the record), message templates and report fields."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agentcli.report import Finding, Severity
from officecli.fieldcheck.errors import missing_column
from officecli.fieldcheck.model import RuleSpec

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# {row} is the line number, {location} the whole location ("line 4 (id=E0003)"); group:
# aggregates
SPECIAL_PLACEHOLDERS = ("field", "expected", "actual", "row", "location", "group")
# str.format is not used on messages: it would allow `{x.__class__}` lookups.

LINES_MEANING = (
    "line N is the Nth line of the file, the header being line 1 (a record whose quoted "
    "cell spans lines has the number of its first line; xlsx: the sheet's row number; "
    "JSON arrays: the element's position)"
)


@dataclass(frozen=True)
class Place:
    """The record a finding is about: its line, its key values, and its file when it is
    not the data file (aggregate_equals findings on the other dataset)."""

    line: int
    key: tuple[tuple[str, str], ...] = ()
    file: str = ""

    @property
    def location(self) -> str:
        where = f"{self.file} line {self.line}" if self.file else f"line {self.line}"
        if self.key:
            where += " (" + ", ".join(f"{name}={value}" for name, value in self.key) + ")"
        return where

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line}
        if self.key:
            out["key"] = dict(self.key)
        if self.file:
            out["file"] = self.file
        return out


def check_placeholders(template: str, columns: Sequence[str], rule_id: str) -> None:
    """Every {name} in a message is a special key or a column of the data."""
    for name in _PLACEHOLDER.findall(template):
        if name not in SPECIAL_PLACEHOLDERS and name not in columns:
            raise missing_column(name, "the data (message placeholder)", columns, rule_id)


def fill(template: str, values: dict[str, str], row: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match[1]
        return values[name] if name in values else row.get(name, match[0])

    return _PLACEHOLDER.sub(one, template)


FindingMaker = Callable[[Place, dict[str, str], str, str, str], Finding]


def finding_maker(spec: RuleSpec, default_message: str, default_suggestion: str) -> FindingMaker:
    """A function building this rule's finding from (place, row, field, expected, actual)."""
    message = spec.message or default_message
    suggestion = spec.suggestion or default_suggestion
    severity: Severity = spec.severity  # type: ignore[assignment]

    def make(place: Place, row: dict[str, str], field: str, expected: str, actual: str) -> Finding:
        location = place.location
        values = {
            "field": field,
            "expected": expected,
            "actual": actual,
            "row": str(place.line),
            "location": location,
        }
        return Finding(
            rule_id=spec.id,
            severity=severity,
            message=fill(message, values, row),
            location=location,
            field=field,
            expected=expected,
            actual=actual,
            suggestion=fill(suggestion, values, row),
            record=place.record(),
        )

    return make
