"""Command handlers: arguments to core calls, results to a findings report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentcli.commands import Command, Outcome
from agentcli.report import SEVERITIES, Report
from officecli import __version__
from officecli.design_diff.api import diff, not_negative
from officecli.design_diff.excel_diff import select_sheets
from officecli.design_diff.grading import Grading
from officecli.design_diff.presets import PRESET_NAMES, Preset, load_preset


def exit_code(report: Report, fail_on: str) -> int:
    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]  # type: ignore[arg-type]
    return 1 if any(report.summary[s] for s in failing) else 0


def excel_handler(values: dict[str, Any], command: Command) -> Outcome:
    report = diff(
        values["before"],
        values["after"],
        preset=Path(values["preset_file"]) if values.get("preset_file") else values["type"],
        keys=values.get("key") or (),
        sheets=values.get("sheet") or (),
        header_row=values["header_row"],
        ignore=values.get("ignore") or (),
        ignore_space=values["ignore_space"],
        ignore_case=values["ignore_case"],
        nfkc=not values["no_nfkc"],
        numeric_tolerance=values["numeric_tolerance"],
        formulas=values["formulas"],
        renamed_rows=not values["no_renamed_rows"],
        max_cells=values["max_cells"],
    )
    return Outcome(report, exit_code(report, values["fail_on"]))


def spec_handler(values: dict[str, Any], command: Command) -> Outcome:
    from officecli.design_diff.spec_check import check_spec, load_severities
    from officecli.design_diff.workbook import read_workbook

    excel, oas = values["excel"], values["oas"]
    not_negative(header_row=values["header_row"], max_cells=values["max_cells"])
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
