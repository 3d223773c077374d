"""fieldcheck: rule-based consistency checks for tabular business data.

The Python API::

    from officecli.fieldcheck import validate

    report = validate("expenses.csv", "rules.yaml", key=["id"])
    for finding in report.findings:
        print(finding.record, finding.rule_id, finding.message)

`validate` writes nothing; bad input raises the typed errors the CLI reports, with the
same codes (`RulesFileError` INVALID_RULES, `MissingColumnError` MISSING_COLUMN,
`TableReadError` INVALID_INPUT, ...). Importing this package stays cheap: the engine loads
on the first call.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from agentcli.report import Report
    from officecli.fieldcheck.model import RuleSet

__all__ = ["validate"]


def validate(
    data: str | Path,
    rules: str | Path | RuleSet,
    *,
    key: Sequence[str] | None = None,
    sheet: str | None = None,
    encoding: str | None = None,
    datasets: Mapping[str, str | Path] | None = None,
    max_findings: int | None = None,
) -> Report:
    """Check the table `data` (CSV, TSV, xlsx, JSON, JSON Lines, Markdown) against `rules`
    (a rules file, or a RuleSet from `officecli.fieldcheck.loader.load_rules`).

    `key` names the columns that identify a record in findings (default: the rules file's
    `key`); `datasets` replaces the paths of datasets the rules file declares;
    `max_findings` keeps at most that many findings (the totals still count them all).
    Returns the findings report: `report.findings` in line order (aggregates last), each
    with `record` = {"line": N, "key": {...}}; `report.summary` counts by severity.
    """
    from officecli.fieldcheck.run import run_validation

    return run_validation(
        data,
        rules,
        key=key,
        sheet=sheet,
        encoding=encoding,
        datasets=datasets,
        max_findings=max_findings,
    )
