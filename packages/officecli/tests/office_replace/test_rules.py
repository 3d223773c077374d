"""The rules file: encodings, xlsx, modes, case, and bad rows named by their row number."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from replace_helpers import Replace, write_rules

from officecli.office_replace.rules import compile_rule, load_rules


def subs(find: str, replace: str, text: str, **cells: str) -> str:
    return compile_rule(2, {"find": find, "replace": replace, **cells}, "r.csv").sub(text)


@pytest.mark.parametrize(
    ("find", "replace", "cells", "text", "expected"),
    [
        ("Acme", "X", {}, "Acme acme ACME", "X acme ACME"),
        ("acme", "X", {"case": "ignore"}, "Acme acme ACME", "X X X"),
        ("a.c", "X", {}, "abc a.c", "abc X"),
        ("A*e", "X", {"mode": "wildcard"}, "Acme Ace Axe", "X X X"),
        ("FY?", "X", {"mode": "wildcard"}, "FY1 FY", "X FY"),
        ("100~*", "X", {"mode": "wildcard"}, "100* 1000", "X 1000"),
        (r"FY(\d{4})", r"\1年度", {"mode": "regex"}, "FY2024 and FY2025", "2024年度 and 2025年度"),
        (r"(?P<n>\d+)円", r"¥\g<n>", {"mode": "regex"}, "100円", "¥100"),
        (r"(a+)+$", "X", {"mode": "regex"}, "a" * 5000 + "b", "a" * 5000 + "b"),  # no backtracking
    ],
)
def test_modes_and_case(
    find: str, replace: str, cells: dict[str, str], text: str, expected: str
) -> None:
    assert subs(find, replace, text, **cells) == expected


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["text", "replace"], ["a", "b"]], "r.csv row 1: unknown column(s) text"),
        ([["replace"], ["b"]], "r.csv row 1: no find column"),
        ([["find", "replace"], ["a", "b"], ["", "c"]], "r.csv row 3: find is empty"),
        (
            [["find", "replace", "mode"], ["(a", "b", "regex"]],
            "r.csv row 2: invalid regex pattern '(a': missing )",
        ),
        (
            [["find", "replace", "mode"], ["(?=a)", "b", "regex"]],
            "r.csv row 2: invalid regex pattern",
        ),
        (
            [["find", "replace", "mode"], ["**", "b", "wildcard"]],
            "r.csv row 2: the wildcard pattern '**' matches the empty string",
        ),
        (
            [["find", "replace", "mode"], ["a", "b", "fuzzy"]],
            "r.csv row 2: mode 'fuzzy' is not one of literal, wildcard, regex",
        ),
        (
            [["find", "replace", "scope"], ["a", "b", "cells"]],
            "r.csv row 2: scope 'cells' is not one of",
        ),
        (
            [["find", "replace", "mode"], ["(a)", r"\2", "regex"]],
            "r.csv row 2: the replacement refers to group '2'",
        ),
        (
            [["id", "find", "replace"], ["x", "a", "b"], ["x", "c", "d"]],
            "r.csv row 3: id 'x' already used on row 2",
        ),
        ([["find", "replace"]], "r.csv: no rules"),
    ],
)
def test_bad_rules_are_exit_2_with_the_row(
    replace: Replace, tmp_path: Path, rows: list[list[str]], message: str
) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    rules = write_rules(tmp_path / "r.csv", rows)
    code, envelope = replace(tmp_path / "a.txt", "--rules", rules, "--dry-run")
    assert (code, envelope["error_code"]) == (2, "INVALID_RULES")
    assert envelope["error"].startswith(message)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932"])
def test_csv_encodings_are_detected(tmp_path: Path, encoding: str) -> None:
    path = write_rules(
        tmp_path / "r.csv", [["find", "replace", "note"], ["株式会社", "（株）", "略す"]], encoding
    )
    (rule,) = load_rules(str(path))
    assert (rule.id, rule.find, rule.replace) == ("R2", "株式会社", "（株）")


def test_xlsx_rules_take_the_first_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["ID", "Find", "Replace", "Mode", "Scope"])
    ws.append(["fy", "2024", "2025", "literal", "all"])
    ws.append([None, None, None, None, None])
    ws.append(["x", "a?c", "z", "wildcard", "text"])
    wb.create_sheet("other").append(["find"])
    wb.save(tmp_path / "r.xlsx")
    rules = load_rules(str(tmp_path / "r.xlsx"))
    assert [(r.id, r.row, r.mode, r.scope) for r in rules] == [
        ("fy", 2, "literal", "all"),
        ("x", 4, "wildcard", "text"),
    ]
