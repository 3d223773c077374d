"""Bad input is exit 2 with a code, user regexes run in linear time, inputs are never lost."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

RULES = "version: 1\nrules:\n  - {id: R1, type: required, field: a}\n"


def _files(tmp_path: Path, rules: str = RULES, data: str = "a,b\n1,2\n") -> tuple[Path, Path]:
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(rules, encoding="utf-8")
    return write_csv(tmp_path / "data.csv", data), rules_path


def test_row_placeholder_is_the_number_and_location_the_location(tmp_path: Path) -> None:
    rules = (
        "version: 1\nrules:\n  - {id: R1, type: required, field: a,"
        " message: 'a missing on row {row} ({location})'}\n"
    )
    data, rules_path = _files(tmp_path, rules, "a,b\n1,2\n,3\n")
    report = run_cli("validate", data, "-r", rules_path).json
    assert [f["message"] for f in report["findings"]] == ["a missing on row 3 (line 3)"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("rule", "pattern"),
    [
        ("{id: R, type: pattern, field: a, regex: '(a+)+$'}", "x"),
        ("{id: R, type: expression, expr: 'matches(a, b)'}", "(a+)+$"),  # from a data column
    ],
)
def test_catastrophic_patterns_run_in_linear_time(tmp_path: Path, rule: str, pattern: str) -> None:
    rules = f"version: 1\nrules:\n  - {rule}\n"
    data, rules_path = _files(tmp_path, rules, "a,b\n" + "a" * 60 + f"!,{pattern}\n")
    result = run_cli("validate", data, "-r", rules_path)
    assert (result.code, [f["rule_id"] for f in result.json["findings"]]) == (1, ["R"])


@pytest.mark.parametrize(
    ("rule", "where"),
    [
        ("{id: P, type: pattern, field: a, regex: '(a)\\1'}", "rules.yaml:3:45:"),
        ("{id: E, type: expression, expr: \"matches(a, '(?=x)')\"}", "rules.yaml:3:37:"),
    ],
)
def test_syntax_re2_cannot_run_is_a_rules_error_with_line_and_column(
    tmp_path: Path, rule: str, where: str
) -> None:
    data, rules_path = _files(tmp_path, f"version: 1\nrules:\n  - {rule}\n")
    result = run_cli("validate", data, "-r", rules_path)
    assert (result.code, result.json["error_code"]) == (2, "INVALID_RULES")
    assert result.json["error"].startswith(where)
    assert "bad regular expression" in result.json["error"]


def test_expression_nested_300_deep_is_a_rules_error(tmp_path: Path) -> None:
    expr = "(" * 300 + "a" + ")" * 300 + " == 1"
    data, rules_path = _files(
        tmp_path, f"version: 1\nrules:\n  - {{id: E, type: expression, expr: '{expr}'}}\n"
    )
    result = run_cli("validate", data, "-r", rules_path)
    assert (result.code, result.json["error_code"]) == (2, "INVALID_RULES")
    assert "nested deeper than 40 levels" in result.json["error"]


def test_yaml_nested_300_deep_is_a_rules_error(tmp_path: Path) -> None:
    when = "{not: " * 300 + "{field: a, present: true}" + "}" * 300
    rules = f"version: 1\nrules:\n  - {{id: R1, type: required, field: a, when: {when}}}\n"
    data, rules_path = _files(tmp_path, rules)
    result = run_cli("validate", data, "-r", rules_path)
    assert (result.code, result.json["error_code"]) == (2, "INVALID_RULES")


@pytest.mark.parametrize("encoding", ["rot13", "base64", "hex", "utf-16", "no-such-codec"])
def test_encodings_that_cannot_read_the_file_are_exit_2(tmp_path: Path, encoding: str) -> None:
    data, rules_path = _files(tmp_path)
    result = run_cli("validate", data, "-r", rules_path, "--encoding", encoding)
    assert (result.code, result.json["error_code"]) == (2, "INVALID_INPUT")


def test_utf16_with_a_bom_is_read(tmp_path: Path) -> None:
    data, rules_path = _files(tmp_path)
    write_csv(data, "a,b\n1,2\n", encoding="utf-16")
    result = run_cli("validate", data, "-r", rules_path, "--encoding", "utf-16")
    assert (result.code, result.json["meta"]["rows"]) == (0, 1)


def test_names_longer_than_255_bytes_are_exit_2(tmp_path: Path) -> None:
    data, rules_path = _files(tmp_path)
    long_name = tmp_path / ("x" * 300 + ".csv")
    for args in (
        (long_name, "-r", rules_path),
        (data, "-r", rules_path, "-o", long_name),
        (data, "-r", tmp_path / ("r" * 300 + ".yaml")),
    ):
        result = run_cli("validate", *args)
        assert (result.code, result.json["error_code"]) == (2, "USAGE")


def test_long_dataset_name_in_the_rules_is_exit_2(tmp_path: Path) -> None:
    rules = (
        "version: 1\n"
        f"datasets: {{m: {'m' * 300}.csv}}\n"
        "masters: {depts: {dataset: m, column: a}}\n"
        "rules:\n  - {id: R, type: reference, field: a, master: depts}\n"
    )
    data, rules_path = _files(tmp_path, rules)
    result = run_cli("validate", data, "-r", rules_path)
    assert (result.code, result.json["error_code"]) == (2, "INVALID_INPUT")


@pytest.mark.parametrize("target", [".", "..", "sub"])
def test_output_that_is_a_folder_is_exit_2(tmp_path: Path, target: str) -> None:
    (tmp_path / "sub").mkdir()
    data, rules_path = _files(tmp_path)
    result = run_cli("validate", data, "-r", rules_path, "-o", target, cwd=tmp_path)
    assert (result.code, result.json["error_code"]) == (2, "USAGE")


def test_output_onto_data_rules_or_a_dataset_is_refused_and_they_are_kept(tmp_path: Path) -> None:
    write_csv(tmp_path / "budget.csv", "a\n1\n")
    rules = (
        "version: 1\ndatasets: {budget: budget.csv}\n"
        "masters: {m: {dataset: budget, column: a}}\n"
        "rules:\n  - {id: R, type: reference, field: a, master: m}\n"
    )
    data, rules_path = _files(tmp_path, rules)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for target in (data, rules_path, tmp_path / "budget.csv"):
        result = run_cli("validate", data, "-r", rules_path, "-o", target)
        assert (result.code, result.json["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_xlsx_zip_bomb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    book = tmp_path / "bomb.xlsx"
    sheet = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    sheet += b"<sheetData>" + b"<row/>" * (2 << 20) + b"</sheetData></worksheet>"
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "xl/workbook.xml",
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
            ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml"'
            ' Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>'
            "</Relationships>",
        )
        zf.writestr("xl/worksheets/sheet1.xml", sheet)
    assert book.stat().st_size < 200_000
    _, rules_path = _files(tmp_path)
    result = run_cli("validate", book, "-r", rules_path)
    assert (result.code, result.json["error_code"]) == (2, "UNSAFE_FILE")
    assert "ratio" in result.json["error"]
