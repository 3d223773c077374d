"""Command handlers: turn parsed arguments into core calls and a report or JSON result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.errors import UsageError
from agentcli.outputs import refuse_inputs
from agentcli.report import Report
from officecli import __version__
from officecli.fieldcheck.engine import Options, Result, validate
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.model import RuleSet

_FAIL_LEVELS = {"error": ("error",), "warning": ("error", "warning")}


def _options(values: dict[str, Any]) -> Options:
    limit = values.get("max_findings")
    if limit is not None and limit < 0:
        raise UsageError("--max-findings must be 0 or more", suggestion="e.g. --max-findings 100")
    datasets: dict[str, str] = {}
    for name, path in values.get("dataset") or []:
        datasets[name] = path
    return Options(
        sheet=values.get("sheet"),
        encoding=values.get("encoding"),
        datasets=datasets,
        max_findings=limit,
    )


def build_report(ruleset: RuleSet, data: str, result: Result) -> Report:
    """The findings report with its meta: input, encoding, rows, rules."""
    table = result.table
    meta: dict[str, str | int | float | bool] = {
        "input": str(data),
        "format": table.format,
        "encoding": table.encoding,
        "rows": result.rows,
        "rules": len(_rule_entries(ruleset)),
        "rules_file": ruleset.path.name,
        "ruleset": ruleset.name,
    }
    if table.sheet:
        meta["sheet"] = table.sheet
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


def validate_handler(values: dict[str, Any], command: Command) -> Outcome:
    options = _options(values)
    ruleset = load_rules(
        values["rules"], dataset_root=values.get("dataset_root"), given=options.datasets
    )
    if values.get("output"):  # -o onto the data and the rules is refused before the handler
        others = [Path(p) for p in options.datasets.values()]
        refuse_inputs(
            [Path(values["output"])], others + [d.path for d in ruleset.datasets.values()], "-o"
        )
    data = values["data"]
    result = validate(ruleset, data, options)
    failing = _FAIL_LEVELS[values.get("fail_on") or "error"]
    exit_code = 1 if any(result.totals[s] for s in failing) else 0
    return Outcome(build_report(ruleset, data, result), exit_code)


def check_rules_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    ruleset = load_rules(values["rules"], dataset_root=values.get("dataset_root"))
    return {
        "rules_file": str(Path(values["rules"])),
        "name": ruleset.name,
        "fields": dict(ruleset.fields),
        "datasets": sorted(ruleset.datasets),
        "masters": sorted(ruleset.masters),
        "rules": list(_rule_entries(ruleset).values()),
    }


def _rule_entries(ruleset: RuleSet) -> dict[str, dict[str, Any]]:
    """One entry per rule of the file; a `fields:` rule lists the columns it checks."""
    entries: dict[str, dict[str, Any]] = {}
    for rule in ruleset.rules:
        entry = entries.setdefault(
            rule.id, {"id": rule.id, "type": rule.type, "severity": rule.severity}
        )
        if rule.each_field:
            entry.setdefault("fields", []).append(rule.params["field"])
    return entries


def list_rules_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from officecli.fieldcheck.ruletypes import list_rules

    return list_rules()


def schema_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from officecli.fieldcheck.schema import rules_schema

    return rules_schema()
