"""Command handlers: arguments to core calls, results to a findings report."""

from __future__ import annotations

from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.errors import UsageError
from agentcli.report import SEVERITIES, Report
from officecli import __version__
from officecli.design_diff.excel_diff import DiffOptions, diff_workbooks, select_sheets
from officecli.design_diff.grading import Grading
from officecli.design_diff.normalize import Normaliser
from officecli.design_diff.presets import PRESET_NAMES, Preset, load_preset
from officecli.design_diff.table_diff import TableOptions

META_COUNTS = {
    "rows_added": "row.added",
    "rows_removed": "row.removed",
    "rows_moved": "row.moved",
    "rows_renamed": "row.renamed",
    "cells_changed": "cell.changed",
    "columns_added": "column.added",
    "columns_removed": "column.removed",
    "columns_renamed": "column.renamed",
    "columns_moved": "column.moved",
    "sheets_added": "sheet.added",
    "sheets_removed": "sheet.removed",
    "sheets_renamed": "sheet.renamed",
    "keys_duplicate": "key.duplicate",
    "keys_blank": "key.blank",
}


def exit_code(report: Report, fail_on: str) -> int:
    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]  # type: ignore[arg-type]
    return 1 if any(report.summary[s] for s in failing) else 0


def _positive(values: dict[str, Any], name: str) -> None:
    if values[name] < 0:
        flag = "--" + name.replace("_", "-")
        raise UsageError(f"{flag} must be 0 or more", suggestion=f"e.g. {flag} 1")


def excel_handler(values: dict[str, Any], command: Command) -> Outcome:
    before, after = values["before"], values["after"]
    for name in ("header_row", "max_cells", "numeric_tolerance"):
        _positive(values, name)
    preset = load_preset(values["type"], values.get("preset_file"))
    normaliser = Normaliser(
        whitespace=values["ignore_space"],
        case=values["ignore_case"],
        nfkc=not values["no_nfkc"],
        tolerance=values["numeric_tolerance"],
    )
    options = DiffOptions(
        table=TableOptions(
            keys=tuple(values.get("key") or ()),
            ignore=tuple(values.get("ignore") or ()),
            normaliser=normaliser,
            renamed_rows=not values["no_renamed_rows"],
        ),
        sheets=tuple(values.get("sheet") or ()),
        header_row=values["header_row"],
        formulas=values["formulas"],
        max_cells=values["max_cells"],
    )
    result = diff_workbooks(before, after, preset, options)
    meta: dict[str, str | int | float | bool] = {
        "before": str(before),
        "after": str(after),
        "preset": preset.name,
        "sheets": result.sheets,
        "tables": result.tables,
        "rows_changed": result.counts["rows_changed"],
    }
    meta |= {name: result.counts[rule] for name, rule in META_COUNTS.items()}
    report = Report("design-diff", __version__, f"design-diff: {before} -> {after}", meta)
    report.findings.extend(result.findings)
    return Outcome(report, exit_code(report, values["fail_on"]))


def spec_handler(values: dict[str, Any], command: Command) -> Outcome:
    from officecli.design_diff.spec_check import check_spec, load_severities
    from officecli.design_diff.workbook import read_workbook

    excel, oas = values["excel"], values["oas"]
    for name in ("header_row", "max_cells"):
        _positive(values, name)
    preset = load_preset(values["type"], values.get("preset_file"))
    severities = load_severities(values.get("severity_file"))
    sheets = read_workbook(
        excel, preset, header_row=values["header_row"], max_cells=values["max_cells"]
    )
    sheets = select_sheets(sheets, tuple(values.get("sheet") or ()), [])
    findings, endpoints, operations = check_spec(sheets, excel, oas, preset, severities)
    meta: dict[str, str | int | float | bool] = {
        "excel": str(excel),
        "oas": str(oas),
        "preset": preset.name,
        "endpoints_in_excel": endpoints,
        "operations_in_oas": operations,
    }
    for finding in findings:
        name = finding.rule_id.removeprefix("spec.").replace(".", "_").replace("-", "_")
        meta[name] = int(meta.get(name, 0)) + 1
    report = Report("design-diff", __version__, f"design-diff spec: {excel} vs {oas}", meta)
    report.findings.extend(findings)
    return Outcome(report, exit_code(report, values["fail_on"]))


def describe_preset(preset: Preset) -> dict[str, Any]:
    return {
        "description": preset.description,
        "keys": list(preset.keys),
        "scope": preset.scope,
        "section_rows": preset.section_rows,
        "ignore": list(preset.ignore),
        "columns": {role: list(labels) for role, labels in preset.columns.items()},
        "severity": {
            "default": preset.default_severity,
            "rules": dict(preset.rule_severity),
            "changed": dict(preset.changed_severity),
            "narrowed": dict(preset.narrowed_severity),
            "widened": dict(preset.widened_severity),
        },
        "grading": describe_grading(preset.grading),
    }


def describe_grading(grading: Grading) -> dict[str, Any]:
    ladders: dict[int, dict[int, list[str]]] = {}
    for name, (ladder, rung) in grading.rungs.items():
        ladders.setdefault(ladder, {}).setdefault(rung, []).append(name)
    return {
        "sizes": sorted(grading.sizes),
        "types": sorted(grading.types),
        "required": sorted(grading.required),
        "nullable": sorted(grading.nullable),
        "marks": sorted(grading.marks),
        "ladders": [[rungs[r] for r in sorted(rungs)] for _l, rungs in sorted(ladders.items())],
    }


def presets_handler(values: dict[str, Any], command: Command) -> dict[str, Any]:
    return {name: describe_preset(load_preset(name, None)) for name in PRESET_NAMES}
