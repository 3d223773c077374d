"""The rules file: encodings, xlsx, modes, case, and bad rows named by their row number."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from officecli_testkit.replace_helpers import Replace, write_rules
from officecli_testkit.sheets import active_sheet

import agentcli.main
from officecli.office_replace.columns import COLUMNS, RULES_FILE
from officecli.office_replace.commands import APP
from officecli.office_replace.errors import RulesError
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
    (rule,) = load_rules(str(path)).rules
    assert (rule.id, rule.find, rule.replace) == ("R2", "株式会社", "（株）")


def test_xlsx_rules_take_the_first_sheet(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = active_sheet(wb)
    ws.append(["ID", "Find", "Replace", "Mode", "Scope"])
    ws.append(["fy", "2024", "2025", "literal", "all"])
    ws.append([None, None, None, None, None])
    ws.append(["x", "a?c", "z", "wildcard", "text"])
    wb.create_sheet("other").append(["find"])
    wb.save(tmp_path / "r.xlsx")
    loaded = load_rules(str(tmp_path / "r.xlsx"))
    assert loaded.columns == ("id", "find", "replace", "mode", "scope")
    rules = loaded.rules
    assert [(r.id, r.row, r.mode, r.scope) for r in rules] == [
        ("fy", 2, "literal", "all"),
        ("x", 4, "wildcard", "text"),
    ]


@pytest.mark.parametrize(
    ("rows", "message", "suggestion"),
    [
        (
            [["find", "replace", "scope"], ["a", "b", "text"], ["c", "d", "sheetnmae"]],
            "r.csv row 3: scope 'sheetnmae' is not one of text, sheetname, filename, all; "
            "did you mean sheetname?",
            "did you mean sheetname? write one of text, sheetname, filename, all in the scope "
            "column of row 3",
        ),
        (
            [["find", "replace", "mode"], ["a", "b", "Regx"]],
            "r.csv row 2: mode 'regx' is not one of literal, wildcard, regex; did you mean regex?",
            "did you mean regex? write one of literal, wildcard, regex in the mode column of row 2",
        ),
        (
            [["find", "replace", "case"], ["a", "b", "ignroe"]],
            "r.csv row 2: case 'ignroe' is not one of sensitive, ignore; did you mean ignore?",
            "did you mean ignore? write one of sensitive, ignore in the case column of row 2",
        ),
        (
            [["fnd", "replace", "scpoe"], ["a", "b", "text"]],
            "r.csv row 1: unknown column(s) fnd, scpoe ('fnd': did you mean find?; "
            "'scpoe': did you mean scope?)",
            "the header row takes: id, find, replace, mode, case, scope, note",
        ),
    ],
)
def test_a_misspelled_value_gets_a_did_you_mean_at_its_row(
    replace: Replace, tmp_path: Path, rows: list[list[str]], message: str, suggestion: str
) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    rules = write_rules(tmp_path / "r.csv", rows)
    code, envelope = replace(tmp_path / "a.txt", "--rules", rules, "--dry-run")
    assert (code, envelope["error_code"]) == (2, "INVALID_RULES")
    assert (envelope["error"], envelope["suggestion"]) == (message, suggestion)


def test_help_and_capabilities_list_the_values_the_loader_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The declared columns are what the loader reads: every declared value is taken, a
    value not declared is refused, and --help and capabilities show them all."""
    for field in RULES_FILE.fields:
        for value, _ in field.values:
            compile_rule(2, {"find": "x", "replace": "y", field.name: value}, "r.csv")
        if field.values:
            with pytest.raises(RulesError):
                compile_rule(2, {"find": "x", "replace": "y", field.name: "other"}, "r.csv")
    assert agentcli.main.run(APP, ["replace", "--help"]) == 0
    shown = capsys.readouterr().out
    for line in (
        "  scope: text|sheetname|filename|all",
        "      sheetname          Excel sheet names, and the formulas, defined names, charts, "
        "validations and conditional formats that refer to them",
        "  mode: literal|wildcard|regex",
        "  case: sensitive|ignore whether upper and lower case differ (default: sensitive)",
    ):
        assert line in shown.splitlines()
    for field in RULES_FILE.fields:
        for value, meaning in field.values:
            assert f"      {value.ljust(18)} {meaning}" in shown
    assert agentcli.main.run(APP, ["capabilities"]) == 0
    (command,) = [
        c for c in json.loads(capsys.readouterr().out)["data"]["commands"] if c["name"] == "replace"
    ]
    (described,) = command["file_formats"]
    assert described["argument"] == "--rules"
    assert [f["name"] for f in described["fields"]] == list(COLUMNS)
    scope = next(f for f in described["fields"] if f["name"] == "scope")
    assert scope["default"] == "text"
    assert list(scope["values"]) == ["text", "sheetname", "filename", "all"]
    assert list(command["output_schema"]["rule_ids"]) == [
        "ID",
        "replace.skipped",
        "replace.furigana",
        "replace.failed",
        "rule.uncovered",
    ]
