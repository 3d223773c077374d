"""What `validate` does: load the rules, run the engine, build the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agentcli.errors import UsageError
from agentcli.report import Report
from officecli import __version__
from officecli.fieldcheck.engine import Options, Result, validate_rows
from officecli.fieldcheck.findings import LINES_MEANING
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.model import RuleSet


def validate_data(ruleset: RuleSet, data: str | Path, options: Options) -> Result:
    """A large plain CSV/TSV file through the vectorised engine when it may (see `vector`),
    any other through the Python engine."""
    if options.engine != "python":
        from officecli.fieldcheck.vector.choice import validate_plain

        result = validate_plain(ruleset, Path(data), options)
        if result is not None:
            return result
    return validate_rows(ruleset, data, options)


def run_validation(
    data: str | Path,
    rules: str | Path | RuleSet,
    *,
    key: Sequence[str] | None = None,
    sheet: str | None = None,
    encoding: str | None = None,
    datasets: Mapping[str, str | Path] | None = None,
    max_findings: int | None = None,
) -> Report:
    ruleset = rules if isinstance(rules, RuleSet) else load_rules(rules)
    if max_findings is not None and max_findings < 0:
        raise UsageError("--max-findings must be 0 or more", suggestion="e.g. --max-findings 100")
    if key is not None and (isinstance(key, str) or not all(key)):
        raise UsageError(
            f"the key must be a list of column names, got {key!r}",
            suggestion="e.g. --key id or --key dept,id",
        )
    options = Options(
        sheet=sheet,
        encoding=encoding,
        datasets={name: str(path) for name, path in (datasets or {}).items()},
        max_findings=max_findings,
        key=list(key) if key is not None else None,
    )
    return build_report(ruleset, data, validate_data(ruleset, data, options), options)


def build_report(ruleset: RuleSet, data: str | Path, result: Result, options: Options) -> Report:
    """The findings report with its meta: input, encoding, rows, rules, how lines count."""
    table = result.table
    meta: dict[str, str | int | float | bool] = {
        "input": str(data),
        "format": table.format,
        "encoding": table.encoding,
        "rows": result.rows,
        "rules": len(rule_entries(ruleset)),
        "rules_file": ruleset.path.name,
        "ruleset": ruleset.name,
    }
    if table.sheet:
        meta["sheet"] = table.sheet
    key = options.key if options.key is not None else ruleset.key
    if key:
        meta["key"] = ",".join(key)
    meta["lines"] = LINES_MEANING
    if result.skipped:
        meta["skipped_evaluations"] = result.skipped
    total = sum(result.totals.values())
    if total != len(result.findings):
        meta["truncated"] = True
        meta["findings_total"] = total
        for severity, count in result.totals.items():
            meta[f"{severity}_total"] = count
    report = Report("fieldcheck", __version__, f"fieldcheck: {ruleset.name}", meta)
    report.findings.extend(result.findings)
    return report


def rule_entries(ruleset: RuleSet) -> dict[str, dict[str, Any]]:
    """One entry per rule of the file; a `fields:` rule lists the columns it checks."""
    entries: dict[str, dict[str, Any]] = {}
    for rule in ruleset.rules:
        entry = entries.setdefault(
            rule.id, {"id": rule.id, "type": rule.type, "severity": rule.severity}
        )
        if rule.each_field:
            entry.setdefault("fields", []).append(rule.params["field"])
    return entries
