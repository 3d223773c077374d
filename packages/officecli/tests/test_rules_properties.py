"""Property: whatever a rules file or preset is mutated into, fieldcheck, design-diff and
office-replace answer one JSON document in valid UTF-8 with exit 0, 1 or 2 (never 3), and
every place an answer points at in that file is a real line and column (never 0:0). The
same property holds for Procler's config (packages/procler/tests/config/)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from agentcli_testkit.mutations import mutated, positions, written
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    from officecli_testkit.sheets import active_sheet

    folder = tmp_path_factory.mktemp("inputs")
    (folder / "data.csv").write_text("id,amount,name,kind\n1,10,ab,a\n2,-5,B1,c\n")
    for name, price in (("before", 1), ("after", 2)):
        book = openpyxl.Workbook()
        sheet = active_sheet(book)
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


class Case(NamedTuple):
    """A tool, the file it is given (its name and valid text) and the argv that reads it."""

    app: App
    name: str
    text: str
    argv: Callable[[Path, Path], list[str]]  # (inputs folder, the file) -> argv


CASES = [
    Case(FIELDCHECK, "rules.yaml", FIELDCHECK_RULES, lambda d, f: ["validate", str(d / "data.csv"), "--rules", str(f)]),
    Case(DESIGN_DIFF, "team.yaml", PRESET, lambda d, f: ["excel", "--before", str(d / "before.xlsx"), "--after", str(d / "after.xlsx"), "--preset-file", str(f)]),
    Case(OFFICE_REPLACE, "rules.csv", REPLACE_RULES, lambda d, f: ["replace", str(d / "memo.docx"), "--rules", str(f), "--dry-run"]),
]  # fmt: skip


def test_the_files_mutated_are_valid_as_written(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Each property starts from a file its tool accepts, so mutations reach every stage."""
    found = []
    for case in CASES:
        (tmp_path / case.name).write_text(case.text)
        document = answered(case.app, case.argv(inputs, tmp_path / case.name), capsysbinary)
        found.append((document["tool"], sorted({f["rule_id"] for f in document["findings"]})))
    assert found == [
        ("fieldcheck", ["R1", "R3", "R4"]),
        ("design-diff", ["cell.changed"]),
        ("office-replace", ["R1", "R2", "R3"]),
    ]


@pytest.mark.parametrize("case", CASES, ids=[c.app.name for c in CASES])
@SETTINGS
@given(data=st.data())
def test_any_mutation_is_answered(
    inputs: Path,
    tmp_path: Path,
    capsysbinary: pytest.CaptureFixture[bytes],
    case: Case,
    data: st.DataObject,
) -> None:
    path = tmp_path / case.name
    lines = written(str(path), data.draw(mutated(case.text)))
    real_places(answered(case.app, case.argv(inputs, path), capsysbinary), case.name, lines)


@pytest.mark.parametrize("case", CASES[:2], ids=[c.app.name for c in CASES[:2]])
def test_an_anchor_defined_twice_is_read_as_yaml_reads_it(
    inputs: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], case: Case
) -> None:
    """YAML 1.2 lets an anchor be defined again; the reader's warning about it must not
    escape (with warnings as errors it was exit 3)."""
    path = tmp_path / case.name
    path.write_text(case.text + "anchors: [&a 1, &a 2, *a]\n")
    document = answered(case.app, case.argv(inputs, path), capsysbinary)
    assert document["success"] is False  # an unknown key, reported at its place
