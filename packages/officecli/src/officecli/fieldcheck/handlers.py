"""Command handlers: parsed arguments in, a call of the Python API or the core, a report or
JSON result out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.outputs import refuse_inputs
from agentcli.report import Report
from officecli.fieldcheck import validate
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.run import rule_entries

_FAIL_LEVELS = {"error": ("error",), "warning": ("error", "warning")}


def _totals(report: Report) -> dict[str, int]:
    """Findings by severity, counting those --max-findings left out of the report."""
    return {s: int(report.meta.get(f"{s}_total", n)) for s, n in report.summary.items()}


def validate_handler(values: dict[str, Any], command: Command) -> Outcome:
    datasets = dict(values.get("dataset") or [])
    ruleset = load_rules(values["rules"], dataset_root=values.get("dataset_root"), given=datasets)
    if values.get("output"):  # -o onto the data and the rules is refused before the handler
        others = [Path(p) for p in datasets.values()]
        refuse_inputs(
            [Path(values["output"])], others + [d.path for d in ruleset.datasets.values()], "-o"
        )
    key = values.get("key")
    report = validate(
        values["data"],
        ruleset,
        key=[name.strip() for name in key.split(",")] if key is not None else None,
        sheet=values.get("sheet"),
        encoding=values.get("encoding"),
        datasets=datasets,
        max_findings=values.get("max_findings"),
    )
    failing = _FAIL_LEVELS[values.get("fail_on") or "error"]
    totals = _totals(report)
    return Outcome(report, 1 if any(totals[s] for s in failing) else 0)


def check_rules_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    ruleset = load_rules(values["rules"], dataset_root=values.get("dataset_root"))
    return {
        "rules_file": str(Path(values["rules"])),
        "name": ruleset.name,
        "key": ruleset.key,
        "fields": dict(ruleset.fields),
        "datasets": sorted(ruleset.datasets),
        "masters": sorted(ruleset.masters),
        "rules": list(rule_entries(ruleset).values()),
    }


def init_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from agentcli.outputs import check_output_file, write_text_atomic
    from officecli.fieldcheck.errors import RulesFileExistsError
    from officecli.fieldcheck.skeleton import skeleton

    data = Path(values["data"])
    target = Path(values.get("output") or data.with_name(f"{data.stem}.rules.yaml"))
    check_output_file(target, [data], "-o")
    if target.exists():
        raise RulesFileExistsError(f"{target} exists; init never overwrites a file")
    text = skeleton(data, values.get("sheet"), values.get("encoding"))
    if not values.get("dry_run"):
        write_text_atomic(target, text)
    return {"rules_file": str(target), "written": not values.get("dry_run"), "text": text}


def list_rules_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from officecli.fieldcheck.ruletypes import list_rules

    return list_rules()


def schema_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from officecli.fieldcheck.schema import rules_schema

    return rules_schema()
