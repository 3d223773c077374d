"""design-diff's reports on generated pairs are pinned byte for byte: a change made for
speed must leave every report exactly as it was, in every format (golden/NAME.json, .md,
.html, .csv).

Set DESIGN_DIFF_GOLDEN=write to write the files again after a change meant to alter the
reports, and review the diff of golden/ like code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from officecli_testkit.golden_pairs import PAIRS, Pair

from agentcli.main import run
from officecli.design_diff.commands import APP

GOLDEN = Path(__file__).with_name("golden")
SUFFIXES = {"json": "json", "markdown": "md", "html": "html", "csv": "csv"}


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
@pytest.mark.parametrize("fmt", list(SUFFIXES))
def test_report_is_byte_identical_to_its_golden_file(
    pair: Pair,
    fmt: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfdbinary: pytest.CaptureFixture[bytes],
) -> None:
    monkeypatch.chdir(tmp_path)  # the report names the files as given: relative, stable
    pair.write(Path("before.xlsx"), Path("after.xlsx"))
    argv = ["excel", "--before", "before.xlsx", "--after", "after.xlsx", *pair.args, "-f", fmt]
    code = run(APP, argv)
    out = capfdbinary.readouterr().out
    golden = GOLDEN / f"{pair.name}.{SUFFIXES[fmt]}"
    if os.environ.get("DESIGN_DIFF_GOLDEN") == "write":
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(out)
    assert (code, out) == (1, golden.read_bytes())
