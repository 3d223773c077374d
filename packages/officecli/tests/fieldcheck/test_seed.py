"""The seed example, end to end through the console entry."""

from __future__ import annotations

from pathlib import Path

import jsonschema
from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

from agentcli.report import report_schema
from officecli.fieldcheck.findings import LINES_MEANING

EXPENSES = "金額,税額,合計\n8000,800,8900\n5000,500,5500\n"
RULES = """version: 1
name: expenses
rules:
  - id: EXP-003
    type: sum_equals
    total: 合計
    parts: [金額, 税額]
    message: "合計 {actual} should be 金額 + 税額 = {expected}"
"""


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    data = write_csv(tmp_path / "expenses.csv", EXPENSES, encoding="cp932")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES, encoding="utf-8")
    return data, rules


def test_seed_example_reports_row_2_expected_8800_actual_8900(tmp_path: Path) -> None:
    data, rules = _setup(tmp_path)
    result = run_cli("validate", data, "-r", rules)
    assert result.code == 1
    report = result.json
    assert report["findings"] == [
        {
            "rule_id": "EXP-003",
            "severity": "error",
            "message": "合計 8900 should be 金額 + 税額 = 8800",
            "location": "line 2",
            "record": {"line": 2},
            "field": "合計",
            "expected": "8800",
            "actual": "8900",
            "suggestion": "check 合計 or its parts (金額, 税額)",
        }
    ]
    assert report["summary"] == {"error": 1, "warning": 0, "info": 0}
    assert report["meta"] == {
        "input": str(data),
        "format": "csv",
        "encoding": "cp932",
        "rows": 2,
        "rules": 1,
        "rules_file": "rules.yaml",
        "ruleset": "expenses",
        "lines": LINES_MEANING,
    }


def test_report_validates_against_the_agentcli_schema(tmp_path: Path) -> None:
    data, rules = _setup(tmp_path)
    report = run_cli("validate", data, "-r", rules).json
    jsonschema.validate(report, report_schema())
    assert report["tool"] == "fieldcheck"


def test_clean_data_exits_0(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "ok.csv", "金額,税額,合計\n8000,800,8800\n", encoding="cp932")
    _, rules = _setup(tmp_path)
    result = run_cli("validate", data, "-r", rules)
    assert (result.code, result.json["findings"]) == (0, [])


def test_markdown_csv_html_and_output_file(tmp_path: Path) -> None:
    data, rules = _setup(tmp_path)
    markdown = run_cli("validate", data, "-r", rules, "-f", "markdown").stdout
    assert "| error | EXP-003 | line 2 | 合計 |" in markdown
    csv_text = run_cli("validate", data, "-r", rules, "-f", "csv").stdout
    assert csv_text.splitlines()[1] == (
        "error,EXP-003,line 2,合計,合計 8900 should be 金額 + 税額 = 8800,8800,8900,"
        '"check 合計 or its parts (金額, 税額)"'
    )
    html = run_cli("validate", data, "-r", rules, "-f", "html").stdout
    assert '<tr class="error"><td>error</td><td>EXP-003</td><td>line 2</td>' in html
    out = tmp_path / "report.json"
    result = run_cli("validate", data, "-r", rules, "-o", out)
    assert (result.code, result.stdout) == (1, "")
    assert '"actual": "8900"' in out.read_text("utf-8")


def test_output_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    data, rules = _setup(tmp_path)
    result = run_cli("validate", data, "-r", rules, "-o", tmp_path / "nope" / "r.json")
    assert (result.code, result.json["error_code"]) == (2, "USAGE")
    assert result.json["error"] == f"-o {tmp_path / 'nope' / 'r.json'}: the folder does not exist"
