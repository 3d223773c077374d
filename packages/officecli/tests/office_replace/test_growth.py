"""The bound on what a rule set may write: rules that feed each other (`a` -> `aa`, n times:
the text doubles with each) are exit 2 naming them, per story and per file, in a child whose
memory is capped; rules that do not are never refused, and --max-growth raises the bound."""

from __future__ import annotations

from pathlib import Path

import docx
import openpyxl
import pytest
from officecli_testkit.replace_helpers import Replace, docx_body, para, run, run_capped, write_rules
from officecli_testkit.sheets import active_sheet

from officecli.office_replace.errors import GrowthError
from officecli.office_replace.growth import Growth
from officecli.office_replace.rules import compile_rule
from officecli.office_replace.textedit import Segment, apply_rules


def chain(path: Path, n: int, scope: str = "") -> Path:
    return write_rules(path, [["find", "replace", "scope"], *[["a", "aa", scope]] * n])


def one_paragraph(path: Path, text: str = "a") -> Path:
    document = docx.Document()
    document.add_paragraph(text)
    document.save(str(path))
    return path


def test_a_chain_of_rules_is_exit_2_naming_them_with_memory_capped(tmp_path: Path) -> None:
    # before the bound, 18 copies took 50 s and 943 MB, and 20 ran past 120 s
    source = one_paragraph(tmp_path / "one.docx")
    rules = chain(tmp_path / "r.csv", 40)
    code, envelope = run_capped(source, "--rules", rules, "-d", tmp_path / "out", timeout=60)
    assert (code, envelope["error_code"]) == (2, "GROWTH_LIMIT")
    assert envelope["data"] == {
        "location": "one.docx :: body",
        # each of the 1 + 2 + ... + 2**12 replacements counts 4 characters: > 16 * 1,024
        "rules": [f"R{row}" for row in range(2, 15)],
        "limit": 16 * 1024,
        "written": 4 * (2**13 - 1),
    }
    assert envelope["error"].startswith(
        "rules R2, R3, R4, R5, R6, R7, R8, R9, R10, R11 and 3 more would write 32,764 "
        "characters into one.docx :: body, more than --max-growth 16 times its 1 characters "
        "(counted as 1,024) allows"
    )
    assert "--max-growth" in envelope["suggestion"]
    assert not (tmp_path / "out").exists()


def test_max_growth_raises_the_bound(replace: Replace, tmp_path: Path) -> None:
    source = one_paragraph(tmp_path / "one.docx")
    rules = chain(tmp_path / "r.csv", 14)
    code, envelope = replace(source, "--rules", rules, "--dry-run")
    assert (code, envelope["error_code"]) == (2, "GROWTH_LIMIT")
    code, report = replace(source, "--rules", rules, "-d", tmp_path / "out", "--max-growth", "64")
    assert code == 0
    assert report["meta"]["file one.docx"] == 2**14 - 1
    assert docx.Document(str(tmp_path / "out" / "one.docx")).paragraphs[0].text == "a" * 2**14


@pytest.mark.parametrize(
    ("name", "scope", "location"),
    [
        ("book.xlsx", "sheetname", "book.xlsx :: sheet 'a'"),
        ("a.txt", "filename", "a.txt :: file name"),
    ],
)
def test_names_are_bounded_too(
    replace: Replace, tmp_path: Path, name: str, scope: str, location: str
) -> None:
    wb = openpyxl.Workbook()
    active_sheet(wb).title = "a"
    wb.save(tmp_path / "book.xlsx")
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    rules = chain(tmp_path / "r.csv", 40, scope)
    code, envelope = replace(tmp_path / name, "--rules", rules, "--dry-run")
    assert (code, envelope["error_code"], envelope["data"]["location"]) == (
        2,
        "GROWTH_LIMIT",
        location,
    )


def test_the_file_has_a_bound_of_its_own(replace: Replace, tmp_path: Path) -> None:
    # 12 copies write 4 x 4,095 characters into each sheet's one-character cell: under each
    # sheet's 16 x 1,024, over the file's 16 x 4,096 by the fifth sheet
    wb = openpyxl.Workbook()
    active_sheet(wb)["A1"] = "a"
    for n in range(2, 6):
        wb.create_sheet(f"S{n}")["A1"] = "a"
    wb.save(tmp_path / "book.xlsx")
    code, envelope = replace(
        tmp_path / "book.xlsx", "--rules", chain(tmp_path / "r.csv", 12), "--dry-run"
    )
    assert (code, envelope["error_code"]) == (2, "GROWTH_LIMIT")
    assert envelope["data"]["location"] == "book.xlsx"
    assert envelope["data"]["limit"] == 16 * 4096


def test_rules_that_trade_back_and_forth_are_bounded(replace: Replace, tmp_path: Path) -> None:
    # a -> b, b -> a ...: the text never grows, but each replacement is a finding
    source = one_paragraph(tmp_path / "dense.docx", "a" * 2000)
    rules = write_rules(tmp_path / "r.csv", [["find", "replace"], *[["a", "b"], ["b", "a"]] * 8])
    code, envelope = replace(source, "--rules", rules, "--dry-run")
    assert (code, envelope["error_code"]) == (2, "GROWTH_LIMIT")
    assert envelope["data"]["rules"] == ["R2", "R3", "R4", "R5", "R6"]  # 5 x 2,000 x 4 > 16 x 2,000


def test_ordinary_rules_are_never_near_the_bound(replace: Replace, tmp_path: Path) -> None:
    body = para(*[run("Acme Corp and Acme Corp, ") for _ in range(2000)])
    source = docx_body(tmp_path / "a.docx", body)
    rules = write_rules(
        tmp_path / "r.csv",
        [
            ["find", "replace"],
            ["Acme Corp", "Globex Incorporated International Holdings"],
            ["Globex", "Globex"],  # finds what the first wrote, writes no more
            ["and", "&"],
        ],
    )
    code, report = replace(source, "--rules", rules, "--dry-run")
    assert code == 0
    assert report["meta"]["file a.docx"] == 4000 + 4000 + 2000


def test_growth_is_charged_before_the_text_is_written() -> None:
    segment = Segment(None, "a" * 10)
    rule = compile_rule(2, {"find": "a", "replace": "a" * 2000}, "r.csv")
    growth = Growth("x.docx", 1)
    growth.begin("body")
    try:
        apply_rules([segment], [rule], growth)
    except GrowthError as exc:
        assert exc.data["written"] == 20000
    else:
        raise AssertionError("GrowthError expected")
    assert segment.text == "a" * 10
