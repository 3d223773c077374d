"""Building findings for a rule: message templates and the shared report fields."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agentcli.report import Finding, Severity
from officecli.fieldcheck.errors import missing_column
from officecli.fieldcheck.model import RuleSpec

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# {row} is the row number, {location} the whole location ("row 4"); group: aggregates
SPECIAL_PLACEHOLDERS = ("field", "expected", "actual", "row", "location", "group")
# str.format is not used on messages: it would allow `{x.__class__}` lookups.


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


FindingMaker = Callable[..., Finding]


def finding_maker(spec: RuleSpec, default_message: str, default_suggestion: str) -> FindingMaker:
    """A function building this rule's finding from (row number, row, field, expected, actual)."""
    message = spec.message or default_message
    suggestion = spec.suggestion or default_suggestion
    severity: Severity = spec.severity  # type: ignore[assignment]

    def make(
        row_no: int | str, row: dict[str, str], field: str, expected: str, actual: str
    ) -> Finding:
        location = row_no if isinstance(row_no, str) else f"row {row_no}"
        values = {
            "field": field,
            "expected": expected,
            "actual": actual,
            "row": str(row_no),
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
        )

    return make
