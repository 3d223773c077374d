from __future__ import annotations

import csv
import io
from pathlib import Path

import jsonschema
import pytest

from agentcli.report import (
    Finding,
    Report,
    render_csv,
    render_html,
    render_markdown,
    report_schema,
    write_report,
)


def sample() -> Report:
    report = Report(
        "tool", "1.2.3", "Check <b>&</b>", meta={"input": "a.csv", "rows": 3, "strict": False}
    )
    report.add(
        Finding(
            "EXP-003", "error", "total <b> wrong", "row 2", "合計", "8800", "8900", "check | parts"
        )
    )
    report.add(Finding("INFO-1", "info", "ok"))
    return report


def test_json_shape_validates_against_the_shipped_schema() -> None:
    data = sample().to_dict()
    jsonschema.validate(data, report_schema())
    assert list(data) == [
        "schema_version",
        "tool",
        "tool_version",
        "title",
        "meta",
        "summary",
        "findings",
    ]
    assert data["summary"] == {"error": 1, "warning": 0, "info": 1}
    assert data["findings"][1] == {
        "rule_id": "INFO-1",
        "severity": "info",
        "message": "ok",
        "location": "",
        "field": "",
        "expected": "",
        "actual": "",
        "suggestion": "",
    }


def test_empty_report_summary_has_all_keys() -> None:
    assert Report("t", "1", "x").to_dict()["summary"] == {"error": 0, "warning": 0, "info": 0}


def test_html_escapes_everything() -> None:
    text = render_html(sample())
    assert "<b>" not in text
    assert "Check &lt;b&gt;&amp;&lt;/b&gt;" in text
    assert "total &lt;b&gt; wrong" in text


def test_markdown_escapes_pipes_and_html() -> None:
    text = render_markdown(sample())
    assert (
        "| error | EXP-003 | row 2 | 合計 | total &lt;b> wrong | 8800 | 8900 | check \\| parts |"
        in text
    )
    assert text.startswith("# Check &lt;b>&&lt;/b>\n\n- **input**: a.csv\n")


def test_markdown_never_carries_html_from_a_file_or_the_rules() -> None:
    """A value `<script>` or `<img onerror>` from the data, the rules' name or the meta is
    shown, not run, by a viewer that renders HTML in Markdown (a `<` that opens nothing,
    `<= 30`, stays); a newline in the title or a meta value cannot start a line of its own."""
    script = "<script>alert(1)</script>"
    report = Report(
        "t", "1", f"rules {script}\n# forged", meta={"input": "<img src=x onerror=alert(1)>\n- x"}
    )
    report.add(Finding("R<1>", "error", script, actual="a\n<b>b</b>", expected="<= 3 &amp;"))
    text = render_markdown(report)
    assert "<script" not in text and "<img" not in text and "<b>" not in text
    assert text.splitlines()[:3] == [
        "# rules &lt;script>alert(1)&lt;/script> # forged",
        "",
        "- **input**: &lt;img src=x onerror=alert(1)> - x",
    ]
    assert (
        "| error | R<1> |  |  | &lt;script>alert(1)&lt;/script> | <= 3 &amp;amp; | a<br>&lt;b>b&lt;/b> |  |"
        in text
    )


@pytest.mark.parametrize("prefix", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_starting_like_a_formula_are_quoted(prefix: str) -> None:
    """OWASP's rule for CSV injection: `=cmd|' /C calc'!A0` opens as text, not a formula."""
    cell = f"{prefix}cmd|' /C calc'!A0"
    report = Report("t", "1", "x")
    report.add(Finding("R", "error", cell, location=cell, actual=cell, suggestion="fine=1"))
    (row,) = list(csv.reader(io.StringIO(render_csv(report), newline="")))[1:]
    shown = "'" + cell.replace("\r", "\n")  # a CR inside a cell is written as LF (quoted)
    assert row == ["error", "R", shown, "", shown, "", shown, "fine=1"]


def test_output_file_is_utf8_without_bom_and_lf(tmp_path: Path) -> None:
    target = tmp_path / "r.csv"
    write_report(sample(), "csv", target)
    raw = target.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" not in raw
    assert (
        raw.decode("utf-8").splitlines()[0]
        == "severity,rule_id,location,field,message,expected,actual,suggestion"
    )
    assert "合計" in raw.decode("utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_details_are_in_json_only_when_a_finding_has_some() -> None:
    report = sample()
    report.add(Finding("X-1", "error", "length narrowed", details={"direction": "narrowed"}))
    data = report.to_dict()
    jsonschema.validate(data, report_schema())
    assert [f.get("details") for f in data["findings"]] == [None, None, {"direction": "narrowed"}]
    assert render_csv(report).splitlines()[-1] == "error,X-1,,,length narrowed,,,"
