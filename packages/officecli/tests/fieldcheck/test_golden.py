"""Today's reports equal the golden ones, byte for byte, in every output format.

The golden reports were written by the engine before the vectorised rewrite, on the data
and rules of `officecli_testkit.fieldcheck_golden` (every rule type, lenient forms, wrong types, chunk
boundaries crossed), so the rewrite is proven to find exactly what the old engine found.

Since then, findings name their record (issue 34): a location reads `line 18` where it
read `row 18` (the same number), a JSON finding carries `record`, and the meta says how
lines are counted. `as_before_records` takes exactly these changes out of today's report;
everything else must be equal byte for byte.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from officecli_testkit.fieldcheck_golden import FORMATS, RULES, reports, write_inputs
from officecli_testkit.fieldcheck_vector_worker import child, render

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("golden")
    write_inputs(folder)
    return reports(folder)


_RECORD = re.compile(r',\n *"record": \{\n *"line": \d+(,\n *"file": "[^"]*")?\n *\}')
_LINES_META = re.compile(
    r',\n *"lines": "[^"]*"|\n- \*\*lines\*\*: [^\n]*|<dt>lines</dt><dd>[^<]*</dd>'
)


def as_before_records(text: str) -> str:
    """Today's report without what naming records added to it (see the module doc)."""
    text = _RECORD.sub("", text)
    text = _LINES_META.sub("", text)
    text = text.replace("first seen on line", "first seen in row")
    return re.sub(r"\bline (\d+)", r"row \1", text)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_report_equals_the_golden_one(produced: dict[str, str], fmt: str) -> None:
    expected = (GOLDEN / FORMATS[fmt]).read_text(encoding="utf-8")
    assert as_before_records(produced[fmt]) == expected


# The vectorised engine leaves aggregate_equals to the Python engine: the rules without
# them show it finding the same, byte for byte.
def _without_aggregates(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "aggregate_equals" not in line) + "\n"


def test_the_vector_engine_gives_the_python_engines_reports(tmp_path: Path) -> None:
    """On the same rows as a TSV file (no quotes: Arrow reads it), every format alike; the
    Python engine gives the golden reports (above). Both run in a child (officecli_testkit.fieldcheck_vector_worker)."""
    write_inputs(tmp_path)
    rules, data = str(tmp_path / "plain.yaml"), str(tmp_path / "data.tsv")
    (tmp_path / "plain.yaml").write_text(_without_aggregates(RULES), encoding="utf-8")
    with child() as call:
        python = call(render, rules, data, "python", "data.tsv")
        vector = call(render, rules, data, "vector", "data.tsv")
    assert json.loads(python["json"])["summary"]["error"] > 500
    for fmt in FORMATS:
        assert vector[fmt] == python[fmt]


def test_the_golden_data_never_says_line() -> None:
    """`as_before_records` may rewrite `line N` only because the data never says it."""
    assert not any("line" in (GOLDEN / name).read_text("utf-8") for name in FORMATS.values())
