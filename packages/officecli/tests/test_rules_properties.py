"""Property: whatever a rules file or preset is mutated into, fieldcheck, design-diff and
office-replace answer one JSON document in valid UTF-8 with exit 0, 1 or 2 (never 3), and
every place an answer points at in that file is a real line and column (never 0:0). The
same property holds for Procler's config (packages/procler/tests/config/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agentcli_testkit.mutations import mutated, positions, written
from hypothesis import HealthCheck, given, settings

from agentcli.commands import App
from agentcli.main import run
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.office_replace.commands import APP as OFFICE_REPLACE

FIELDCHECK_RULES = """version: 1
key: id
rules:
  - id: R1
    type: range
    field: amount
    min: 0
  - id: R2
    type: required
    field: name
  - id: R3
    type: pattern
    field: name
    regex: "^[a-z]+$"
  - id: R4
    type: enum
    field: kind
    values: [a, b]
"""
PRESET = """name: team
columns:
  code: [code]
  price: [price]
keys: [code]
severity:
  default: info
  changed: {price: error}
"""
REPLACE_RULES = """id,find,replace,mode,case,scope
R1,Acme,Globex,literal,sensitive,text
R2,FY202?,FY2027,wildcard,ignore,all
R3,(\\d+) yen,\\1 JPY,regex,sensitive,text
"""
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data each tool reads beside the mutated file: a CSV, two workbooks, a docx."""
    import docx
    import openpyxl

    folder = tmp_path_factory.mktemp("inputs")
    (folder / "data.csv").write_text("id,amount,name,kind\n1,10,ab,a\n2,-5,B1,c\n")
    for name, price in (("before", 1), ("after", 2)):
        book = openpyxl.Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.append(["code", "price"])
        sheet.append(["a", price])
        book.save(folder / f"{name}.xlsx")
    document = docx.Document()
    document.add_paragraph("Acme's FY2026 budget: 100 yen")
    document.save(str(folder / "memo.docx"))
    return folder


def answered(app: App, argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> Any:
    code = run(app, argv)
    out = capsysbinary.readouterr().out.decode("utf-8")  # strict: stdout is valid UTF-8
    document = json.loads(out)  # one JSON document, nothing else
    assert code in (0, 1, 2), (code, document)
    return document


def places(value: Any) -> list[tuple[int, int]]:
    """Every {line, column} pair an answer holds, at any depth."""
    if isinstance(value, list):
        return [p for v in value for p in places(v)]
    if not isinstance(value, dict):
        return []
    here = [(value["line"], value["column"])] if {"line", "column"} <= value.keys() else []
    return here + [p for v in value.values() for p in places(v)]


def real_places(document: Any, name: str, lines: int) -> None:
    named = positions(json.dumps(document, ensure_ascii=False), name)
    held = [p for p in places(document) if all(isinstance(n, int) for n in p)]
    for line, column in named + held:
        assert 1 <= line <= lines and column >= 1, (line, column, document)


def test_the_files_mutated_are_valid_as_written(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Each property starts from a file its tool accepts, so mutations reach every stage."""
    (tmp_path / "rules.yaml").write_text(FIELDCHECK_RULES)
    (tmp_path / "team.yaml").write_text(PRESET)
    (tmp_path / "rules.csv").write_text(REPLACE_RULES)
    runs = [
        (FIELDCHECK, ["validate", str(inputs / "data.csv"), "--rules", str(tmp_path / "rules.yaml")]),
        (DESIGN_DIFF, ["excel", "--before", str(inputs / "before.xlsx"), "--after", str(inputs / "after.xlsx"), "--preset-file", str(tmp_path / "team.yaml")]),
        (OFFICE_REPLACE, ["replace", str(inputs / "memo.docx"), "--rules", str(tmp_path / "rules.csv"), "--dry-run"]),
    ]  # fmt: skip
    found = []
    for app, argv in runs:
        document = answered(app, argv, capsysbinary)
        found.append((document["tool"], sorted({f["rule_id"] for f in document["findings"]})))
    assert found == [
        ("fieldcheck", ["R1", "R3", "R4"]),
        ("design-diff", ["cell.changed"]),
        ("office-replace", ["R1", "R2", "R3"]),
    ]


@SETTINGS
@given(text=mutated(FIELDCHECK_RULES))
def test_fieldcheck_answers_any_rules_file(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], text: str
) -> None:
    rules = tmp_path / "rules.yaml"
    lines = written(str(rules), text)
    argv = ["validate", str(inputs / "data.csv"), "--rules", str(rules)]
    real_places(answered(FIELDCHECK, argv, capsysbinary), "rules.yaml", lines)


@SETTINGS
@given(text=mutated(PRESET))
def test_design_diff_answers_any_preset(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], text: str
) -> None:
    preset = tmp_path / "team.yaml"
    lines = written(str(preset), text)
    argv = ["excel", "--before", str(inputs / "before.xlsx"), "--after"]
    argv += [str(inputs / "after.xlsx"), "--preset-file", str(preset)]
    real_places(answered(DESIGN_DIFF, argv, capsysbinary), "team.yaml", lines)


@SETTINGS
@given(text=mutated(REPLACE_RULES))
def test_office_replace_answers_any_rules_file(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], text: str
) -> None:
    rules = tmp_path / "rules.csv"
    lines = written(str(rules), text)
    argv = ["replace", str(inputs / "memo.docx"), "--rules", str(rules), "--dry-run"]
    real_places(answered(OFFICE_REPLACE, argv, capsysbinary), "rules.csv", lines)
