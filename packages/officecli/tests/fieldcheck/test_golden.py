"""Today's reports equal the golden ones, byte for byte, in every output format.

The golden reports were written by the engine before the vectorised rewrite, on the data
and rules of `golden_data` (every rule type, lenient forms, wrong types, chunk
boundaries crossed), so the rewrite is proven to find exactly what the old engine found.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_data import FORMATS, reports, write_inputs

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def produced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("golden")
    write_inputs(folder)
    return reports(folder)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_report_equals_the_golden_one(produced: dict[str, str], fmt: str) -> None:
    expected = (GOLDEN / FORMATS[fmt]).read_text(encoding="utf-8")
    assert produced[fmt] == expected
