"""rule.uncovered: a rule's find text where the rule does not act, with what would cover it
(a row in the rules file's own columns, or a --stories word), or that nothing would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pptx
from officecli_testkit.replace_helpers import (
    Replace,
    docx_body,
    findings,
    para,
    patch_zip,
    run,
    write_rules,
)
from officecli_testkit.sheets import active_sheet
from openpyxl.chart import BarChart, Reference
from openpyxl.workbook.defined_name import DefinedName

UNCOVERED = "rule.uncovered"
DEFAULT = "body,headers,footnotes,notes,charts"


def seen(report: dict[str, Any], *keys: str) -> list[tuple[str, ...]]:
    return [tuple(f[k] for k in keys) for f in findings(report, UNCOVERED)]


def test_a_file_name_names_the_filename_row_in_the_files_columns(
    replace: Replace, tmp_path: Path
) -> None:
    (tmp_path / "in").mkdir()
    docx_body(tmp_path / "in" / "報告2024.docx", para(run("FY2024")))
    rules = write_rules(tmp_path / "r.csv", [["find", "replace"], ["2024", "2025"]])
    code, report = replace("-r", tmp_path / "in", "--rules", rules, "--dry-run")
    assert code == 0
    assert seen(report, "location", "field", "expected", "suggestion") == [
        (
            "報告2024.docx :: file name",
            "R2",
            "報告2024",
            "add the column(s) scope to the header, then add: 2024,2025,filename",
        )
    ]
    assert findings(report, UNCOVERED)[0]["message"] == (
        "rule R2 (text) finds '2024' in the file name, which only a filename rule changes"
    )


def test_a_rule_keeps_its_mode_and_case_in_the_row(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    docx_body(tmp_path / "in" / "acme-corp.docx", para(run("x")))
    rules = write_rules(
        tmp_path / "r.csv",
        [["id", "find", "replace", "mode", "case", "note"], ["co", "acme.corp", "globex", "regex", "ignore", "n"]],
    )  # fmt: skip
    code, report = replace("-r", tmp_path / "in", "--rules", rules, "--dry-run")
    assert code == 0
    assert seen(report, "suggestion") == [
        ("add the column(s) scope to the header, then add: ,acme.corp,globex,regex,ignore,,filename",)
    ]  # fmt: skip


def test_masters_left_out_by_stories_are_named(replace: Replace, tmp_path: Path) -> None:
    prs = pptx.Presentation()
    prs.slides.add_slide(prs.slide_layouts[6])
    prs.save(str(tmp_path / "d.pptx"))
    rules = write_rules(tmp_path / "r.csv", [["find", "replace"], ["Master title", "Title"]])
    code, report = replace(tmp_path / "d.pptx", "--rules", rules, "--dry-run")
    assert code == 0
    assert len(findings(report, UNCOVERED)) == 11  # the master and the ten layouts with a title
    assert seen(report, "location", "suggestion")[0] == (
        "d.pptx :: slideMaster1 :: shape 'Title Placeholder 1' / paragraph 1",
        f"add masters to --stories: --stories {DEFAULT},masters",
    )
    code, report = replace(
        tmp_path / "d.pptx", "--rules", rules, "--dry-run", "--stories", f"{DEFAULT},masters"
    )
    assert (len(findings(report, "R2")), findings(report, UNCOVERED)) == (11, [])


def book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = active_sheet(wb)
    ws.title = "Acme Corp"
    ws["A1"] = "Acme Corp"
    for row in range(2, 5):
        ws.cell(row, 2, row)
    chart = BarChart()
    chart.title = "Acme Corp sales"
    chart.add_data(Reference(ws, min_col=2, min_row=2, max_row=4))
    ws.add_chart(chart, "E1")
    ws["C1"] = '="Acme Corp"&B2'
    wb.defined_names["AcmeCorp_total"] = DefinedName("AcmeCorp_total", attr_text="'Acme Corp'!$B$2")
    wb.save(path)
    return path


def test_every_place_of_a_workbook_says_what_covers_it(replace: Replace, tmp_path: Path) -> None:
    source = book(tmp_path / "b.xlsx")
    rules = write_rules(
        tmp_path / "r.csv",
        [["id", "find", "replace", "scope"], ["co", "Acme Corp", "Globex", "sheetname"], ["us", "AcmeCorp", "Globex", "all"]],
    )  # fmt: skip
    code, report = replace(source, "--rules", rules, "--dry-run", "--stories", "body")
    assert code == 0
    text_row = "add: ,Acme Corp,Globex,text"
    assert seen(report, "field", "location", "expected", "suggestion") == [
        (
            "us",
            "b.xlsx :: workbook :: defined name 'AcmeCorp_total'",
            "AcmeCorp_total",
            "no rule changes it: edit it by hand",
        ),
        (
            "co",
            "b.xlsx :: Acme Corp!C1 formula",
            '"Acme Corp"&B2',
            "no rule changes it: edit it by hand",
        ),
        ("co", "b.xlsx :: Acme Corp!A1", "Acme Corp", text_row),
        (
            "co",
            "b.xlsx :: Acme Corp :: chart1 :: chart title / paragraph 1",
            "Acme Corp sales",
            f"{text_row}; add charts to --stories: --stories body,charts",
        ),
    ]
    assert findings(report, UNCOVERED)[-1]["message"] == (
        "rule co (sheetname) finds 'Acme Corp' in charts text, which only a text rule changes "
        "and which --stories leaves out"
    )
    # the sheet itself, and the references to it, are the rule's own: renamed, not uncovered
    assert [(f["location"], f["actual"]) for f in findings(report, "co")] == [
        ("b.xlsx :: workbook :: sheet 'Acme Corp'", "Globex"),
        ("b.xlsx :: chart1 :: series 1 values", "'Globex'!$B$2:$B$4"),
        ("b.xlsx :: workbook :: defined name 'AcmeCorp_total'", "'Globex'!$B$2"),
    ]


def test_a_part_no_rule_edits_that_cannot_be_read_is_said_and_the_file_written(
    replace: Replace, tmp_path: Path
) -> None:
    source = book(tmp_path / "b.xlsx")
    patch_zip(source, {"xl/tables/table9.xml": "<table><unclosed></table>"})
    rules = write_rules(tmp_path / "r.csv", [["find", "replace"], ["sales", "revenue"]])
    code, report = replace(source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert seen(report, "location", "field") == [("b.xlsx :: workbook", "BROKEN_FILE")]
    assert findings(report, UNCOVERED)[0]["message"].startswith(
        "a part with formulas could not be read to look for text no rule reaches: "
        "b.xlsx:xl/tables/table9.xml: XML is not well formed"
    )
    assert [f["location"] for f in findings(report, "R2")] == [
        "b.xlsx :: Acme Corp :: chart1 :: chart title / paragraph 1"
    ]
    assert (tmp_path / "out" / "b.xlsx").exists()
