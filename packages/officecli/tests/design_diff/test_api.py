"""design-diff from Python, as a user imports it: `from officecli.design_diff import diff`
returns the Report the command line prints, and raises the command line's typed errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from officecli_testkit.design_diff_helpers import api_rows, write_book

from agentcli.errors import UsageError
from agentcli.main import run
from agentcli.report import render_json
from officecli.design_diff import diff
from officecli.design_diff.commands import APP
from officecli.design_diff.errors import KeyColumnError, PresetError, WorkbookError

USER_SCRIPT = """
from officecli.design_diff import diff

report = diff(BEFORE, AFTER, preset="api")
for f in report.findings:
    print(f.rule_id, f.severity, f.location, f.expected, "->", f.actual, dict(f.details))
print(report.summary, report.meta["cells_changed"])
"""


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    new = api_rows()
    new[2][5] = 10  # 桁数 20 -> 10: narrowed
    return write_book(tmp_path / "v1.xlsx", {"API": api_rows()}), write_book(tmp_path / "v2.xlsx", {"API": new})  # fmt: skip


def test_a_user_script_imports_and_calls_diff(tmp_path: Path) -> None:
    before, after = _pair(tmp_path)
    script = USER_SCRIPT.replace("BEFORE", repr(str(before))).replace("AFTER", repr(str(after)))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path)  # fmt: skip
    assert done.stdout.splitlines() == [
        "cell.changed error API!F3 (物理名=f2) 20 -> 10 {'direction': 'narrowed'}",
        "{'error': 1, 'warning': 0, 'info': 0} 1",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v1.xlsx", "v2.xlsx"]  # wrote nothing


def test_the_command_line_prints_the_report_diff_returns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = _pair(tmp_path)
    code = run(APP, ["excel", "--before", str(before), "--after", str(after), "--type", "api"])
    printed = capsys.readouterr().out
    assert (code, printed) == (1, render_json(diff(before, after, preset="api")))
    assert json.loads(printed)["findings"][0]["details"] == {"direction": "narrowed"}


def test_options_are_the_command_lines(tmp_path: Path) -> None:
    old = [["Code", "Name"], ["a", "x "], ["b", "y"]]
    new = [["Code", "Name"], ["a", "x"], ["B", "y"]]
    before = write_book(tmp_path / "a.xlsx", {"S": old})
    after = write_book(tmp_path / "b.xlsx", {"S": new})
    assert [f.rule_id for f in diff(before, after).findings] == ["cell.changed", "row.renamed"]
    quiet = diff(before, after, ignore_space=True, ignore_case=True, renamed_rows=False)
    assert quiet.findings == []
    assert [f.rule_id for f in diff(before, after, renamed_rows=False).findings] == ["cell.changed", "row.removed", "row.added"]  # fmt: skip


def test_bad_input_raises_the_command_lines_typed_errors(tmp_path: Path) -> None:
    before, after = _pair(tmp_path)
    with pytest.raises(WorkbookError) as missing:
        diff(tmp_path / "nope.xlsx", after)
    with pytest.raises(KeyColumnError) as key:
        diff(before, after, keys=["物理名X"])
    with pytest.raises(UsageError) as preset:
        diff(before, after, preset="tabel")
    with pytest.raises(PresetError) as preset_file:
        diff(before, after, preset=tmp_path / "team.yaml")
    with pytest.raises(UsageError) as negative:
        diff(before, after, max_cells=-1)
    assert [
        (e.value.code, e.value.exit_code) for e in (missing, key, preset, preset_file, negative)
    ] == [
        ("INVALID_WORKBOOK", 2),
        ("UNKNOWN_COLUMN", 2),
        ("USAGE", 2),
        ("INVALID_PRESET", 2),
        ("USAGE", 2),
    ]
    assert key.value.suggestion.startswith("did you mean '物理名'?")
    assert preset.value.suggestion.startswith("did you mean 'table'?")
