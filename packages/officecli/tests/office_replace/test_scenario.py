"""The agent's scenario of issue 34: rename a company "safely, checking first" across a
Word, a PowerPoint and an Excel file, with the name in a footer, speaker notes, a sheet
name and a formula referring to that sheet, solved from the JSON answers alone.

The truth: seven places hold the old name. A first dry run with a plain text rule replaces
four and must say that the sheet name, and the formula that refers to it, are left; its
suggestion is the row to add. With that row, nothing is left and the real run writes it.
"""

from __future__ import annotations

import csv
from pathlib import Path

import docx
import openpyxl
import pptx
from officecli_testkit.replace_helpers import Replace, findings, members
from officecli_testkit.sheets import active_sheet
from pptx.util import Inches

OLD, NEW = "旧商事株式会社", "新商事株式会社"
SHEET = f"{OLD} 価格表"


def folder(root: Path) -> Path:
    root.mkdir()
    document = docx.Document()
    document.add_paragraph(f"{OLD} 御中")
    document.sections[0].footer.paragraphs[0].text = f"© {OLD}"
    document.save(str(root / "letter.docx"))
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_textbox(
        Inches(1), Inches(1), Inches(4), Inches(1)
    ).text_frame.text = f"{OLD} のご提案"
    slide.notes_slide.notes_text_frame.text = f"{OLD}の沿革から話す"
    deck.save(str(root / "proposal.pptx"))
    book = openpyxl.Workbook()
    prices = active_sheet(book)
    prices.title = SHEET
    prices["A2"], prices["B2"], prices["C2"] = "単価", 1200, f"{OLD} 標準価格"
    total = book.create_sheet("集計")
    total["A1"] = f"='{SHEET}'!B2*2"
    book.save(root / "prices.xlsx")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir())}


def test_a_company_renamed_across_word_powerpoint_and_excel(
    replace: Replace, tmp_path: Path
) -> None:
    source = folder(tmp_path / "docs")
    before = snapshot(source)
    rules = tmp_path / "rules.csv"
    with open(rules, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["find", "replace", "id", "mode", "case", "scope"], [OLD, NEW]])

    # 1. the first dry run: four text places replaced, and what no rule reaches said
    code, first = replace("-r", source, "--rules", rules, "--dry-run", "--fail-on", "warning")
    assert code == 1
    assert [f["location"] for f in findings(first, "R2")] == [
        "letter.docx :: body :: paragraph 1",
        "letter.docx :: footer1 :: paragraph 1",
        f"prices.xlsx :: {SHEET}!C2",
        "proposal.pptx :: slide 1 :: shape 'TextBox 1' / paragraph 1",
        "proposal.pptx :: slide 1 :: notes :: shape 'Notes Placeholder 2' / paragraph 1",
    ]
    uncovered = [
        (f["location"], f["field"], f["expected"], f["suggestion"])
        for f in findings(first, "rule.uncovered")
    ]
    add = f"add: {OLD},{NEW},,,,sheetname"
    assert uncovered == [
        (f"prices.xlsx :: workbook :: sheet '{SHEET}'", "R2", SHEET, add),
        ("prices.xlsx :: 集計!A1 formula", "R2", f"'{SHEET}'!B2*2", add),
    ]
    assert first["summary"] == {"error": 0, "warning": 2, "info": 5}

    # 2. the suggestion is the row to add, in the file's own columns
    with open(rules, "a", encoding="utf-8", newline="") as fh:
        fh.write(uncovered[0][3].removeprefix("add: ") + "\n")
    code, second = replace("-r", source, "--rules", rules, "--dry-run", "--fail-on", "warning")
    assert code == 0
    assert findings(second, "rule.uncovered") == []
    assert [(f["location"], f["expected"], f["actual"]) for f in findings(second, "R3")] == [
        (f"prices.xlsx :: workbook :: sheet '{SHEET}'", SHEET, f"{NEW} 価格表"),
        ("prices.xlsx :: 集計!A1 formula", f"'{SHEET}'!B2*2", f"'{NEW} 価格表'!B2*2"),
    ]

    # 3. the real run writes what the dry run reported, and the originals stay as they were
    code, done = replace("-r", source, "--rules", rules, "-d", tmp_path / "out")
    assert code == 0
    assert done["findings"] == second["findings"]
    assert snapshot(source) == before
    out = tmp_path / "out"
    letter = docx.Document(str(out / "letter.docx"))
    assert letter.paragraphs[0].text == f"{NEW} 御中"
    assert letter.sections[0].footer.paragraphs[0].text == f"© {NEW}"
    slide = pptx.Presentation(str(out / "proposal.pptx")).slides[0]
    assert [s.text_frame.text for s in slide.shapes] == [f"{NEW} のご提案"]
    assert slide.notes_slide.notes_text_frame.text == f"{NEW}の沿革から話す"
    book = openpyxl.load_workbook(out / "prices.xlsx")
    assert book.sheetnames == [f"{NEW} 価格表", "集計"]
    assert book[f"{NEW} 価格表"]["C2"].value == f"{NEW} 標準価格"
    assert book["集計"]["A1"].value == f"='{NEW} 価格表'!B2*2"
    for path in out.iterdir():
        assert OLD.encode() not in b"".join(members(path).values())
