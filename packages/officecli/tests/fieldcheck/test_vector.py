"""The vectorised engine finds what the Python engine finds, in the same order with the
same texts, on files it reads itself, and hands every other file to the Python engine."""

from __future__ import annotations

import string
from pathlib import Path

import pyarrow as pa
import pytest
from golden_data import RULES, write_inputs
from hypothesis import given, settings
from hypothesis import strategies as st

from officecli.fieldcheck.engine import Options, validate
from officecli.fieldcheck.errors import MissingColumnError
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.values import CONVERTERS, is_blank
from officecli.fieldcheck.vector import scan
from officecli.fieldcheck.vector.arrays import PY_WHITESPACE, strip, typed

PLAIN_RULES = "\n".join(line for line in RULES.splitlines() if "aggregate_equals" not in line)


def _both(rules: Path, data: Path, **options: object) -> tuple[list[dict[str, str]], int]:
    python = validate(load_rules(rules), data, Options(engine="python", **options))  # type: ignore[arg-type]
    vector = validate(load_rules(rules), data, Options(engine="vector", **options))  # type: ignore[arg-type]
    assert (python.engine, vector.engine) == ("python", "vector")
    assert (vector.rows, vector.skipped, vector.totals) == (
        python.rows,
        python.skipped,
        python.totals,
    )
    assert [f.to_json() for f in vector.findings] == [f.to_json() for f in python.findings]
    return [f.to_json() for f in python.findings], python.rows


@pytest.mark.parametrize("block", [300, 4096, 1 << 20])
def test_batches_of_any_size_give_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """Small blocks put unique keys, their repeats and blank lines in different batches."""
    monkeypatch.setattr(scan, "BLOCK_BYTES", block)
    write_inputs(tmp_path)
    rules = tmp_path / "plain.yaml"
    rules.write_text(PLAIN_RULES, encoding="utf-8")
    lines = (tmp_path / "data.tsv").read_text(encoding="utf-8").split("\n")[:-1]
    for at in (1500, 700, 300, 1, 1):  # blank lines: two right after the header
        lines.insert(at, "")
    data = tmp_path / "blanks.tsv"
    data.write_bytes(("\r\n".join(lines) + "\r\n\r\n").encode("utf-8"))  # and a last one
    found, rows = _both(rules, data, key=["id"])
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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scan, "BLOCK_BYTES", 2048)
    write_inputs(tmp_path)
    rules = tmp_path / "plain.yaml"
    rules.write_text(PLAIN_RULES, encoding="utf-8")
    found, _ = _both(rules, tmp_path / "data.tsv", max_findings=40)
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
    tmp_path: Path, name: str, content: bytes
) -> None:
    data = tmp_path / name
    data.write_bytes(content)
    result = validate(load_rules(_rules(tmp_path)), data, Options(engine="vector"))
    assert result.engine == "python"
    assert [f.location for f in result.findings] == ["line 2"]


def test_small_files_stay_with_the_python_engine(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("id,n\n1,-1\n", encoding="utf-8")
    assert validate(load_rules(_rules(tmp_path)), data, Options()).engine == "python"


def test_the_whitespace_arrow_strips_is_what_python_strips() -> None:
    assert "".join(c for c in map(chr, range(0x110000)) if c.isspace()) == PY_WHITESPACE


_CELL = st.text(
    alphabet=string.digits + "+-.eE_ ,¥円%()/年月日TtrueFalsNny０１\u3000\t", max_size=12
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_CELL, min_size=1, max_size=30),
    st.sampled_from(["number", "integer", "date", "boolean", "auto"]),
)
def test_arrow_reads_a_cell_as_python_does_or_leaves_it_to_python(
    cells: list[str], kind: str
) -> None:
    raw = pa.array(cells, pa.string())
    got = typed(raw, lambda: pa.array([is_blank(c) for c in cells]), kind)
    values, unusual = got.values.to_pylist(), got.unusual.to_pylist()
    for cell, value, odd in zip(cells, values, unusual, strict=True):
        if is_blank(cell):
            assert (value, odd) == (None, False)
        elif not odd:
            assert value == CONVERTERS[kind](cell), cell
            assert value is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=" \t\u3000\x1c\x85a-", max_size=6), min_size=1, max_size=20))
def test_strip_is_python_strip(cells: list[str]) -> None:
    assert strip(pa.array(cells, pa.string())).to_pylist() == [c.strip() for c in cells]


def test_a_rule_naming_a_missing_column_is_the_same_error(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("id,amount\n1,-1\n", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text("version: 1\nrules:\n  - {id: R1, type: required, field: amout}\n", "utf-8")
    errors = []
    for engine in ("python", "vector"):
        with pytest.raises(MissingColumnError) as caught:
            validate(load_rules(rules), data, Options(engine=engine))  # type: ignore[arg-type]
        errors.append((caught.value.message, caught.value.suggestion, caught.value.data))
    assert errors[0] == errors[1]
    assert errors[0][0] == "R1: no column 'amout' in the data"
