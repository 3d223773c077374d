"""The vectorised engine finds what the Python engine finds, in the same order with the
same texts, on files it reads itself, and hands every other file to the Python engine.
The engine runs in a child process (see officecli_testkit.fieldcheck_vector_worker)."""

from __future__ import annotations

import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from officecli_testkit.fieldcheck_golden import RULES, write_inputs
from officecli_testkit.fieldcheck_vector_worker import (
    InChild,
    child,
    missing_column_error,
    read_cells,
    run_engine,
    strip_cells,
    whitespace,
)

from officecli.fieldcheck.engine import Options
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.run import validate_data as validate
from officecli.fieldcheck.values import CONVERTERS, is_blank

PLAIN_RULES = "\n".join(line for line in RULES.splitlines() if "aggregate_equals" not in line)


Call = InChild


@pytest.fixture(scope="module")
def call() -> Iterator[Call]:
    with child() as run:
        yield run


def _both(
    call: Call, rules: Path, data: Path, block: int = 4 << 20, **options: object
) -> tuple[list[dict[str, Any]], int]:
    python = call(run_engine, str(rules), str(data), "python", block, options)
    vector = call(run_engine, str(rules), str(data), "vector", block, options)
    assert (python[0], vector[0]) == ("python", "vector")
    assert vector[1:] == python[1:]  # rows, skipped, totals, findings
    return python[4], python[1]


@pytest.mark.parametrize("block", [300, 4096, 1 << 20])
def test_batches_of_any_size_give_the_same_findings(tmp_path: Path, call: Call, block: int) -> None:
    """Small blocks put unique keys, their repeats and blank lines in different batches."""
    write_inputs(tmp_path)
    rules = tmp_path / "plain.yaml"
    rules.write_text(PLAIN_RULES, encoding="utf-8")
    lines = (tmp_path / "data.tsv").read_text(encoding="utf-8").split("\n")[:-1]
    for at in (1500, 700, 300, 1, 1):  # blank lines: two right after the header
        lines.insert(at, "")
    data = tmp_path / "blanks.tsv"
    data.write_bytes(("\r\n".join(lines) + "\r\n\r\n").encode("utf-8"))  # and a last one
    found, rows = _both(call, rules, data, block, key=["id"])
    assert rows == 2300
    assert [f["location"] for f in found if f["rule_id"] == "row.blank"] == [
        "line 2",
        "line 3",
        "line 303",
        "line 704",
        "line 1505",
        "line 2307",
    ]
    assert sum(f["rule_id"] == "R02" for f in found) == 3
    assert sum(f["rule_id"] == "R18" for f in found) > 10


def test_truncated_reports_keep_the_first_findings_in_line_order(
    tmp_path: Path, call: Call
) -> None:
    write_inputs(tmp_path)
    rules = tmp_path / "plain.yaml"
    rules.write_text(PLAIN_RULES, encoding="utf-8")
    found, _ = _both(call, rules, tmp_path / "data.tsv", 2048, max_findings=40)
    assert len(found) == 40


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(
        "version: 1\nfields: {n: number}\nrules:\n  - {id: R1, type: range, field: n, min: 0}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("quoted.csv", b'id,n\n1,"-1"\n2,3\n'),  # a quote: the csv module's quoting rules
        ("ragged.csv", b"id,n\n1,-1\n2,3,4\n"),  # a record wider than the header
        ("lone-cr.csv", b"id,n\r1,-1\r2,3\r"),  # old Mac line ends
        ("cp932.csv", "id,n\n一,-1\n".encode("cp932")),  # not UTF-8
        ("quoted-header.csv", b'"id",n\n1,-1\n'),
    ],
)
def test_files_arrow_would_read_otherwise_go_to_the_python_engine(
    tmp_path: Path, call: Call, name: str, content: bytes
) -> None:
    data = tmp_path / name
    data.write_bytes(content)
    engine, *_, findings = call(run_engine, str(_rules(tmp_path)), str(data), "vector", 4 << 20, {})
    assert engine == "python"
    assert [f["location"] for f in findings] == ["line 2"]


def test_small_files_stay_with_the_python_engine(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("id,n\n1,-1\n", encoding="utf-8")
    assert validate(load_rules(_rules(tmp_path)), data, Options()).engine == "python"


def test_the_whitespace_arrow_strips_is_what_python_strips(call: Call) -> None:
    assert "".join(c for c in map(chr, range(0x110000)) if c.isspace()) == call(whitespace)


_CELL = st.text(
    alphabet=string.digits + "+-.eE_ ,¥円%()/年月日TtrueFalsNny０１\u3000\t", max_size=12
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_CELL, min_size=1, max_size=30),
    st.sampled_from(["number", "integer", "date", "boolean", "auto"]),
)
def test_arrow_reads_a_cell_as_python_does_or_leaves_it_to_python(
    call: Call, cells: list[str], kind: str
) -> None:
    values, unusual = call(read_cells, cells, kind)
    for cell, value, odd in zip(cells, values, unusual, strict=True):
        if is_blank(cell):
            assert (value, odd) == (None, False)
        elif not odd:
            assert value == CONVERTERS[kind](cell), cell
            assert value is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=" \t\u3000\x1c\x85a-", max_size=6), min_size=1, max_size=20))
def test_strip_is_python_strip(call: Call, cells: list[str]) -> None:
    assert call(strip_cells, cells) == [c.strip() for c in cells]


def test_a_rule_naming_a_missing_column_is_the_same_error(tmp_path: Path, call: Call) -> None:
    data = tmp_path / "d.csv"
    data.write_text("id,amount\n1,-1\n", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text("version: 1\nrules:\n  - {id: R1, type: required, field: amout}\n", "utf-8")
    errors = [call(missing_column_error, str(rules), str(data), e) for e in ("python", "vector")]
    assert errors[0] == errors[1]
    assert errors[0][0] == "R1: no column 'amout' in the data"
