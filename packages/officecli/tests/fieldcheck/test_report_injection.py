"""fieldcheck's reports quote the data's cells: opened in a spreadsheet or a Markdown
viewer, a cell `=cmd|' /C calc'!A0` or `<script>` is shown, never run."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

FORMULA = "=cmd|' /C calc'!A0"
SCRIPT = "<script>alert(1)</script>"


def _files(tmp_path: Path) -> tuple[Path, Path]:
    data = write_csv(tmp_path / "d.csv", f'code\n"{FORMULA}"\n{SCRIPT}\n')
    rules = tmp_path / "rules.yaml"
    rules.write_text(
        "version: 1\nrules:\n  - {id: C1, type: pattern, field: code, regex: '[A-Z]+'}\n",
        encoding="utf-8",
    )
    return data, rules


def test_csv_report_cells_starting_like_formulas_are_text(tmp_path: Path) -> None:
    data, rules = _files(tmp_path)
    result = run_cli("validate", data, "-r", rules, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert (result.code, [r["actual"] for r in rows]) == (1, ["'" + FORMULA, SCRIPT])


def test_markdown_report_shows_html_escaped(tmp_path: Path) -> None:
    data, rules = _files(tmp_path)
    result = run_cli("validate", data, "-r", rules, "-f", "markdown")
    assert result.code == 1
    assert "<script" not in result.stdout
    assert "&lt;script>alert(1)&lt;/script>" in result.stdout
