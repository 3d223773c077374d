"""Excel: strings edited in the XML (shared, inline, rich text), furigana left alone, drawing
and chart text, and sheet renames that rewrite every reference."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from officecli_testkit.replace_helpers import (
    Replace,
    findings,
    members,
    patch_zip,
    places,
    write_rules,
)
from officecli_testkit.replace_samples import SHAPE, book_with_everything, text_rules
from officecli_testkit.sheets import active_sheet
from openpyxl.chart import BarChart, Reference
from openpyxl.formatting.rule import Rule
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation


def test_strings_drawings_and_charts_are_edited_in_place(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    source = book_with_everything(tmp_path / "in" / "請求.xlsx")
    code, report = replace(source, "--rules", text_rules(tmp_path), "-d", tmp_path / "out")
    assert code == 0
    assert places(report, "co") == [
        "請求.xlsx :: 表紙!A1, 表紙!B1",
        "請求.xlsx :: sharedStrings si 3",
        "請求.xlsx :: 表紙!A2",
        "請求.xlsx :: 表紙!A9",
        "請求.xlsx :: 表紙 :: shape 'Note box' / paragraph 1",
        "請求.xlsx :: 表紙 :: chart1 :: chart title / paragraph 1",
    ]
    assert places(report, "jp") == ["請求.xlsx :: 表紙!A3"]
    furigana = findings(report, "replace.furigana")
    assert [(f["location"], f["expected"], f["actual"]) for f in furigana] == [
        ("請求.xlsx :: 表紙!A3", "株式会社アクメ", "株式会社グローブ")
    ]
    out = tmp_path / "out" / "請求.xlsx"
    ws = openpyxl.load_workbook(out, rich_text=True)["表紙"]
    assert [str(ws[c].value) for c in ("A1", "B1", "A2", "A3", "A9")] == [
        "Globex Inc",
        "Globex Inc",
        "Globex Inc tail",
        "株式会社グローブ",
        "inline Globex Inc",
    ]
    first, second = ws["A2"].value
    assert (first.text, first.font.b, second.text, second.font.i) == (
        "Globex Inc",
        True,
        " tail",
        True,
    )
    parts, before = members(out), members(source)
    assert "カブシキガイシャ" in parts["xl/sharedStrings.xml"].decode()
    assert b"shape Globex Inc" in parts["xl/drawings/drawing1.xml"]
    assert b"Globex Inc sales" in parts["xl/charts/chart1.xml"]
    changed = {
        "xl/sharedStrings.xml",
        "xl/worksheets/sheet1.xml",
        "xl/drawings/drawing1.xml",
        "xl/charts/chart1.xml",
    }
    assert {n for n in parts if parts[n] != before[n]} == changed
    assert parts["xl/sharedStrings.xml"].startswith(before["xl/sharedStrings.xml"][:55])


def renamable_book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    data = active_sheet(wb)
    data.title = "売上2024"
    for row in range(1, 4):
        data.cell(row, 1, row)
    summary = wb.create_sheet("Summary")
    summary["A1"] = "='売上2024'!A1"
    summary["A2"] = "=SUM('売上2024'!A1:A3)+SUM(売上2024!A1)"
    summary["A3"] = '="売上2024!A1"'
    summary["A4"] = "=Summary!A1"
    wb.defined_names["total"] = DefinedName("total", attr_text="'売上2024'!$A$1:$A$3")
    dv = DataValidation(type="list", formula1="'売上2024'!$A$1:$A$3")
    summary.add_data_validation(dv)
    dv.add("B1")
    # what openpyxl's FormulaRule builds (its stub leaves that factory without types)
    rule = Rule(type="expression", formula=["'売上2024'!$A$1>1"], dxf=DifferentialStyle())
    summary.conditional_formatting.add("C1", rule)
    chart = BarChart()
    chart.add_data(Reference(data, min_col=1, min_row=1, max_row=3))
    summary.add_chart(chart, "E1")
    wb.save(path)
    linked = SHAPE.replace("<sp ", "<sp textlink=\"'売上2024'!A1\" ")
    titles = (
        '<TitlesOfParts><vt:vector xmlns:vt="http://schemas.openxmlformats.org/officeDocument/'
        '2006/docPropsVTypes" size="2" baseType="lpstr"><vt:lpstr>売上2024</vt:lpstr>'
        "<vt:lpstr>Summary</vt:lpstr></vt:vector></TitlesOfParts></Properties>"
    )
    patch_zip(
        path,
        {
            "xl/drawings/drawing1.xml": lambda xml: xml.replace("</wsDr>", linked + "</wsDr>"),
            "docProps/app.xml": lambda xml: xml.replace("</Properties>", titles),
        },
    )
    return path


def test_a_sheet_rename_rewrites_every_reference(replace: Replace, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    source = renamable_book(tmp_path / "in" / "book.xlsx")
    rules = write_rules(
        tmp_path / "r.csv", [["find", "replace", "scope"], ["2024", "2025", "sheetname"]]
    )
    code, planned = replace(source, "--rules", rules, "--dry-run")
    code, report = replace(source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert planned["findings"] == report["findings"]
    old, new = "'売上2024'!$A$1:$A$3", "'売上2025'!$A$1:$A$3"
    assert [
        (f["location"], f["field"], f["expected"], f["actual"]) for f in findings(report, "R2")
    ] == [
        ("book.xlsx :: workbook :: sheet '売上2024'", "sheetname", "売上2024", "売上2025"),
        ("book.xlsx :: Summary!A1 formula", "sheet reference", "'売上2024'!A1", "'売上2025'!A1"),
        (
            "book.xlsx :: Summary!A2 formula",
            "sheet reference",
            "SUM('売上2024'!A1:A3)+SUM(売上2024!A1)",
            "SUM('売上2025'!A1:A3)+SUM(売上2025!A1)",
        ),
        (
            "book.xlsx :: Summary!C1 conditional format",
            "sheet reference",
            "'売上2024'!$A$1>1",
            "'売上2025'!$A$1>1",
        ),
        ("book.xlsx :: Summary!B1 data validation", "sheet reference", old, new),
        (
            "book.xlsx :: drawing1 :: shape 'Note box' textlink",
            "sheet reference",
            "'売上2024'!A1",
            "'売上2025'!A1",
        ),
        ("book.xlsx :: chart1 :: series 1 values", "sheet reference", old, new),
        ("book.xlsx :: workbook :: defined name 'total'", "sheet reference", old, new),
        ("book.xlsx :: docProps/app.xml", "sheet reference", "売上2024", "売上2025"),
    ]
    assert report["meta"]["rule R2"] == 9
    # a string that only looks like a reference is not one: no rule changes it
    (literal,) = findings(report, "rule.uncovered")
    assert (literal["location"], literal["expected"], literal["suggestion"]) == (
        "book.xlsx :: Summary!A3 formula",
        '"売上2024!A1"',
        "no rule changes it: edit it by hand",
    )
    wb = openpyxl.load_workbook(tmp_path / "out" / "book.xlsx")
    summary = wb["Summary"]
    assert wb.sheetnames == ["売上2025", "Summary"]
    assert [summary[c].value for c in ("A1", "A2", "A3", "A4")] == [
        "='売上2025'!A1",
        "=SUM('売上2025'!A1:A3)+SUM(売上2025!A1)",
        '="売上2024!A1"',
        "=Summary!A1",
    ]
    assert wb.defined_names["total"].attr_text == "'売上2025'!$A$1:$A$3"
    assert summary.data_validations.dataValidation[0].formula1 == "'売上2025'!$A$1:$A$3"
    rule = next(iter(summary.conditional_formatting))
    assert rule.rules[0].formula == ["'売上2025'!$A$1>1"]
    parts = members(tmp_path / "out" / "book.xlsx")
    assert "'売上2025'!$A$1:$A$3" in parts["xl/charts/chart1.xml"].decode()
    assert "売上2024" not in parts["docProps/app.xml"].decode()
    assert "textlink=\"'売上2025'!A1\"" in parts["xl/drawings/drawing1.xml"].decode()


@pytest.mark.parametrize(
    ("find", "replace_with", "message"),
    [
        ("Summary", "Sum/mary", "may not contain /"),
        ("売上2024", "summary", "would both be named 'Summary' (Excel ignores case)"),
        ("売上2024", "x" * 32, "must be 1 to 31 characters"),
    ],
)
def test_an_invalid_or_colliding_sheet_name_is_exit_2(
    replace: Replace, tmp_path: Path, find: str, replace_with: str, message: str
) -> None:
    (tmp_path / "in").mkdir()
    source = renamable_book(tmp_path / "in" / "book.xlsx")
    rules = write_rules(
        tmp_path / "r.csv", [["find", "replace", "scope"], [find, replace_with, "sheetname"]]
    )
    code, envelope = replace(source, "--rules", rules, "-d", tmp_path / "out")
    assert (code, envelope["error_code"]) == (2, "BAD_NEW_NAME")
    assert message in envelope["error"]
    assert not (tmp_path / "out").exists()


def test_cell_comments_only_with_the_comments_story(replace: Replace, tmp_path: Path) -> None:
    from openpyxl.comments import Comment

    (tmp_path / "in").mkdir()
    wb = openpyxl.Workbook()
    sheet = active_sheet(wb)
    sheet["B2"] = 1
    sheet["B2"].comment = Comment("ask Acme Corp", "me")
    wb.save(tmp_path / "in" / "c.xlsx")
    code, report = replace(tmp_path / "in" / "c.xlsx", "--rules", text_rules(tmp_path), "--dry-run")
    assert (code, places(report, "rule.uncovered")) == (0, ["c.xlsx :: Sheet!B2 comment"])
    assert findings(report)[0]["suggestion"] == (
        "add comments to --stories: --stories body,headers,footnotes,comments,notes,charts"
    )
    code, report = replace(
        tmp_path / "in" / "c.xlsx", "--rules", text_rules(tmp_path), "-d", tmp_path / "out",
        "--stories", "body,comments",
    )  # fmt: skip
    assert places(report, "co") == ["c.xlsx :: Sheet!B2 comment"]
    assert (
        active_sheet(openpyxl.load_workbook(tmp_path / "out" / "c.xlsx"))["B2"].comment.text
        == "ask Globex Inc"
    )
