"""design-diff from Python: `diff(before, after, preset=...) -> Report`.

The command line is a thin layer over this function: it passes its options, renders the
Report and turns its findings into the exit code. Bad input raises the same typed errors
as the command line prints (their `code`, `suggestion` and `data`), all InputError or
UsageError subclasses of agentcli.errors.AgentError; nothing is written anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from agentcli.errors import UsageError
from agentcli.report import Report
from officecli import __version__
from officecli.design_diff.commands import DEFAULT_MAX_CELLS
from officecli.design_diff.excel_diff import DiffOptions, diff_workbooks
from officecli.design_diff.normalize import Normaliser
from officecli.design_diff.presets import PRESET_NAMES, Preset, load_preset
from officecli.design_diff.table_diff import TableOptions
from officecli.fieldcheck.errors import closest

Path = str | os.PathLike[str]
META_COUNTS = {  # meta name -> the rule it counts (every rule of EXCEL_RULES)
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


def resolve_preset(preset: Path | Preset) -> Preset:
    """A Preset as given; a shipped preset by name; else the path of a team's preset
    file (a name that is no shipped preset and no file gets the closest name)."""
    if isinstance(preset, Preset):
        return preset
    text = os.fspath(preset)
    if text in PRESET_NAMES:
        return load_preset(text, None)
    if isinstance(preset, str) and not text.endswith((".yaml", ".yml")) and os.sep not in text:
        raise UsageError(
            f"unknown preset {text!r}",
            suggestion=f"did you mean {closest(text, PRESET_NAMES)!r}? shipped presets: "
            f"{', '.join(PRESET_NAMES)}; or pass the path of a preset file (.yaml)",
        )
    return load_preset(None, text)


def not_negative(**values: float) -> None:
    for name, value in values.items():
        if value < 0:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{name} ({flag}) must be 0 or more", suggestion=f"e.g. {flag} 1")


def diff(
    before: Path,
    after: Path,
    *,
    preset: Path | Preset = "generic",
    keys: Sequence[str] = (),
    sheets: Sequence[str] = (),
    header_row: int = 0,
    ignore: Sequence[str] = (),
    ignore_space: bool = False,
    ignore_case: bool = False,
    nfkc: bool = True,
    numeric_tolerance: float = 0.0,
    formulas: bool = False,
    renamed_rows: bool = True,
    max_cells: int = DEFAULT_MAX_CELLS,
) -> Report:
    """What changed between two versions of a design workbook (.xlsx), rows joined on
    their key. `preset`: api, table, screen, generic, or a preset file's path. `keys`:
    key column headers (a compound key when several). `header_row`: the sheet row of the
    headers (1-based; 0 finds it). The report's findings and meta are those of the
    command line's JSON; report.summary counts them by severity."""
    not_negative(header_row=header_row, max_cells=max_cells, numeric_tolerance=numeric_tolerance)
    chosen = resolve_preset(preset)
    normaliser = Normaliser(
        whitespace=ignore_space, case=ignore_case, nfkc=nfkc, tolerance=numeric_tolerance
    )
    options = DiffOptions(
        table=TableOptions(
            keys=tuple(keys), ignore=tuple(ignore), normaliser=normaliser, renamed_rows=renamed_rows
        ),
        sheets=tuple(sheets),
        header_row=header_row,
        formulas=formulas,
        max_cells=max_cells,
    )
    old, new = os.fspath(before), os.fspath(after)
    result = diff_workbooks(old, new, chosen, options)
    meta: dict[str, str | int | float | bool] = {
        "before": old,
        "after": new,
        "preset": chosen.name,
        "sheets": result.sheets,
        "tables": result.tables,
        "rows_changed": result.counts["rows_changed"],
    }
    meta |= {name: result.counts[rule] for name, rule in META_COUNTS.items()}
    report = Report("design-diff", __version__, f"design-diff: {old} -> {new}", meta)
    report.findings.extend(result.findings)
    return report
