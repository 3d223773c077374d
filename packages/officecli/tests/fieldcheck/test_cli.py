"""The console entry: exit codes, usage errors, options, corpus input."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from officecli_testkit.fieldcheck_helpers import CORPUS, run_cli, write_csv
from officecli_testkit.sheets import active_sheet

RULES = "version: 1\nrules:\n  - {id: R1, type: range, field: 金額, min: 0}\n"


def _rules(tmp_path: Path, text: str = RULES) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_column_exit_2_names_the_closest(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", "金額合計,税額\n1,2\n")
    rules = _rules(tmp_path, "version: 1\nrules:\n  - {id: R1, type: required, field: 金額}\n")
    result = run_cli("validate", data, "-r", rules)
    assert result.code == 2
    env = result.json
    assert env["error_code"] == "MISSING_COLUMN"
    assert env["error"] == "R1: no column '金額' in the data"
    assert (
        env["suggestion"]
        == "the closest existing column is '金額合計'; columns are: 金額合計, 税額"
    )
    assert env["data"] == {
        "column": "金額",
        "closest": "金額合計",
        "rule": "R1",
        "input": "the data",
    }


def test_wrong_type_gives_one_finding_and_skips_dependent_rules(tmp_path: Path) -> None:
    rules = _rules(
        tmp_path,
        "version: 1\nfields: {金額: number}\nrules:\n"
        "  - {id: S1, type: sum_equals, total: 合計, parts: [金額, 税額]}\n"
        "  - {id: R1, type: range, field: 金額, min: 0}\n"
        "  - {id: X1, type: expression, expr: '金額 > 10'}\n"
        "  - {id: P1, type: pattern, field: 金額, regex: '\\d+'}\n"
        "  - {id: Q1, type: required, field: 税額}\n",
    )
    data = write_csv(tmp_path / "d.csv", "金額,税額,合計\n八千,800,8800\n")
    report = run_cli("validate", data, "-r", rules).json
    assert [(f["rule_id"], f["field"], f["actual"]) for f in report["findings"]] == [
        ("schema.type", "金額", "八千")
    ]


def test_reads_the_mskanji_corpus_file_as_cp932(tmp_path: Path) -> None:
    source = CORPUS / "markitdown" / "test_mskanji.csv"
    rules = _rules(
        tmp_path,
        "version: 1\nfields: {年齢: integer}\nrules:\n"
        "  - {id: K1, type: range, field: 年齢, max: 30}\n"
        "  - {id: K2, type: enum, field: 住所, values: [東京, 大阪]}\n",
    )
    result = run_cli("validate", source, "-r", rules)
    assert result.code == 1
    report = result.json
    assert (report["meta"]["encoding"], report["meta"]["rows"]) == ("cp932", 3)
    assert [(f["rule_id"], f["location"], f["actual"]) for f in report["findings"]] == [
        ("K1", "line 4", "35"),
        ("K2", "line 4", "名古屋"),
    ]


def test_encoding_override_and_unknown_encoding(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", "金額\n-1\n", encoding="cp932")
    rules = _rules(tmp_path)
    result = run_cli("validate", data, "-r", rules, "--encoding", "shift_jis")
    assert (result.code, result.json["meta"]["encoding"]) == (1, "shift_jis")
    bad = run_cli("validate", data, "-r", rules, "--encoding", "klingon")
    assert (bad.code, bad.json["error_code"]) == (2, "INVALID_INPUT")
    assert bad.json["error"] == "unknown encoding 'klingon'"


def test_unreadable_inputs_exit_2(tmp_path: Path) -> None:
    rules = _rules(tmp_path)
    missing = run_cli("validate", tmp_path / "nope.csv", "-r", rules)
    assert (missing.code, missing.json["error_code"]) == (2, "INVALID_INPUT")
    odd = tmp_path / "d.pdf"
    odd.write_bytes(b"%PDF")
    assert (
        run_cli("validate", odd, "-r", rules).json["error"] == "d.pdf: unsupported file type '.pdf'"
    )
    no_rules = run_cli("validate", odd, "-r", tmp_path / "none.yaml")
    assert (no_rules.code, no_rules.json["error_code"]) == (2, "INVALID_RULES")
    assert no_rules.json["error"] == f"{str(tmp_path / 'none.yaml')!r}: no such file"


def test_empty_and_directory_paths_are_named_as_such(tmp_path: Path) -> None:
    rules = _rules(tmp_path)
    cases: dict[tuple[str, str | Path], tuple[str, str]] = {
        ("", rules): ("INVALID_INPUT", "'': the path is empty"),
        (str(tmp_path), rules): ("INVALID_INPUT", f"{str(tmp_path)!r}: is a directory, not a file"),
        (str(rules), ""): ("INVALID_RULES", "'': the path is empty"),
        (str(rules), str(tmp_path)): (
            "INVALID_RULES",
            f"{str(tmp_path)!r}: is a directory, not a file",
        ),
    }
    for (data, rules_path), (code, message) in cases.items():
        result = run_cli("validate", data, "-r", rules_path)
        assert (result.code, result.json["error_code"], result.json["error"]) == (2, code, message)


def test_fail_on_and_max_findings(tmp_path: Path) -> None:
    rules = _rules(
        tmp_path,
        "version: 1\nrules:\n  - {id: W1, type: range, field: 金額, min: 0, severity: warning}\n",
    )
    data = write_csv(tmp_path / "d.csv", "金額\n-1\n-2\n-3\n")
    assert run_cli("validate", data, "-r", rules).code == 0
    result = run_cli("validate", data, "-r", rules, "--fail-on", "warning", "--max-findings", "2")
    assert result.code == 1
    report = result.json
    assert [f["location"] for f in report["findings"]] == ["line 2", "line 3"]
    assert report["meta"]["truncated"] is True
    assert (report["meta"]["findings_total"], report["meta"]["warning_total"]) == (3, 3)
    negative = run_cli("validate", data, "-r", rules, "--max-findings", "-1")
    assert (negative.code, negative.json["error_code"]) == (2, "USAGE")


def test_dataset_override(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("code\nA\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("code\nB\n", encoding="utf-8")
    rules = _rules(
        tmp_path,
        "version: 1\ndatasets: {codes: a.csv}\nmasters: {m: {dataset: codes, column: code}}\n"
        "rules:\n  - {id: M1, type: reference, field: code, master: m}\n",
    )
    data = write_csv(tmp_path / "d.csv", "code\nB\n")
    assert run_cli("validate", data, "-r", rules).code == 1
    assert (
        run_cli("validate", data, "-r", rules, "--dataset", f"codes={tmp_path / 'b.csv'}").code == 0
    )
    unknown = run_cli("validate", data, "-r", rules, "--dataset", "nope=x.csv")
    assert (unknown.code, unknown.json["error_code"]) == (2, "USAGE")


def test_xlsx_sheet_by_name(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    active_sheet(book).title = "表紙"
    sheet = book.create_sheet("経費")
    for row in (["金額", "税額", "合計"], [8000, 800, 8900], [5000, 500, 5500]):
        sheet.append(row)
    path = tmp_path / "book.xlsx"
    book.save(path)
    rules = _rules(
        tmp_path,
        "version: 1\nrules:\n  - {id: EXP-003, type: sum_equals, total: 合計, parts: [金額, 税額]}\n",
    )
    report = run_cli("validate", path, "--sheet", "経費", "-r", rules).json
    assert report["meta"]["sheet"] == "経費"
    assert [(f["location"], f["expected"], f["actual"]) for f in report["findings"]] == [
        ("line 2", "8800", "8900")
    ]
    missing = run_cli("validate", path, "--sheet", "nope", "-r", rules)
    assert missing.code == 2
    assert missing.json["suggestion"] == "use --sheet with one of: 表紙, 経費"


def test_list_rules_and_schema(tmp_path: Path) -> None:
    listed = run_cli("list-rules")
    assert listed.code == 0
    types = [t["type"] for t in listed.json["data"]["rule_types"]]
    assert types == [
        "required", "type", "range", "length", "pattern", "enum", "unique",
        "compare", "sum_equals", "reference", "expression", "aggregate_equals",
    ]  # fmt: skip
    schema = run_cli("schema").json["data"]
    assert schema["properties"]["version"] == {"const": 1, "description": "always 1"}
    rule_types = [r["properties"]["type"]["const"] for r in schema["$defs"]["rule"]["oneOf"]]
    assert rule_types == types


def test_capabilities_lists_the_error_codes() -> None:
    caps = run_cli("capabilities").json["data"]
    validate = next(c for c in caps["commands"] if c["name"] == "validate")
    assert validate["errors"] == [
        "INVALID_RULES",
        "MISSING_COLUMN",
        "INVALID_INPUT",
        "OUTPUT_IS_INPUT",
        "UNSAFE_FILE",
        "BROKEN_FILE",
        "ENCRYPTED_FILE",
        "NOT_REGULAR_FILE",
        "FILE_TOO_LARGE",
        "USAGE",
        "INTERNAL",
        "INTERRUPTED",
    ]
