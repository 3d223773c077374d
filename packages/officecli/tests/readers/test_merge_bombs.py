"""A merged range is a range: `<mergeCell ref="A1:XFD1048576"/>` in a 1.4 KB workbook
(17 billion cells) hung doc2md and design-diff, which expanded it cell by cell. Merges are
now cut to the used rows and cost what they touch, counted against --max-cells. Each run
is a child capped at 1 GiB of address space and 60 s."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.bomb_files import capped, doc2md_capped, merged_xlsx

DESIGN_DIFF = "from officecli.design_diff.cli import main; main()"
WHOLE_SHEET = "A1:XFD1048576"
TABLE = [["No", "Name", "Type"], ["1", "id", "int"], ["2", "name", "text"]]
HIDDEN_COLUMN = (
    '<cols><col min="9" max="9" hidden="1"/></cols>'  # the expat scan, not the bulk read
)


def design_diff(*args: str | Path) -> tuple[int, dict[str, Any]]:
    done = capped([sys.executable, "-c", DESIGN_DIFF, *map(str, args)], 1024, 60)
    return done.returncode, json.loads(done.stdout)


def test_doc2md_reads_a_merge_of_the_whole_sheet_as_a_range(tmp_path: Path) -> None:
    path = merged_xlsx(tmp_path / "merge.xlsx", [["x"]], [WHOLE_SHEET])
    assert path.stat().st_size < 1500
    code, report = doc2md_capped(path, "-d", tmp_path / "out")
    assert (code, [f["rule_id"] for f in report["findings"]]) == (0, ["convert.ok"])
    assert (tmp_path / "out" / "merge.md").read_text("utf-8") == "## Sheet1\n\nx\n"


@pytest.mark.parametrize("extra", ["", HIDDEN_COLUMN], ids=["bulk", "expat"])
def test_design_diff_compares_workbooks_with_a_merge_of_the_whole_sheet(
    tmp_path: Path, extra: str
) -> None:
    """A merge from D1 (an empty cell) over the rest of the sheet clears nothing: the
    tables are those of the workbook without it, both ways of reading."""
    before = merged_xlsx(tmp_path / "before.xlsx", TABLE, ["D5:D6"], extra)
    after = merged_xlsx(tmp_path / "after.xlsx", TABLE, ["D1:XFD1048576"], extra)
    code, report = design_diff("excel", "--before", before, "--after", after)
    assert (code, report["summary"]) == (0, {"error": 0, "warning": 0, "info": 0})


def test_a_merge_of_the_whole_sheet_over_a_table_leaves_its_first_value(tmp_path: Path) -> None:
    path = merged_xlsx(tmp_path / "merge.xlsx", TABLE, [WHOLE_SHEET])
    code, report = design_diff("excel", "--before", path, "--after", path)
    assert (code, report["error_code"]) == (2, "NO_HEADER")


def test_merges_count_against_max_cells(tmp_path: Path) -> None:
    """Nine cells, and a merge clearing nine and repeating its value in two more rows:
    20 cells, past --max-cells 12. doc2md cuts (a warning), design-diff refuses."""
    path = merged_xlsx(tmp_path / "merge.xlsx", TABLE, [WHOLE_SHEET])
    code, report = doc2md_capped(path, "-d", tmp_path / "out", "--max-cells", "12")
    cut = [f for f in report["findings"] if f["rule_id"] == "convert.truncated"]
    assert (code, [f["message"] for f in cut]) == (
        0,
        [
            "cut at --max-cells 12: the merged ranges of sheet 'Sheet1' cover more cells "
            "than were left; those past it are not applied"
        ],
    )
    code, report = design_diff("excel", "--before", path, "--after", path, "--max-cells", "12")
    assert (code, report["error_code"], report["suggestion"]) == (
        2,
        "INVALID_WORKBOOK",
        "raise --max-cells or pass --sheet",
    )


@pytest.mark.parametrize("extra", ["", HIDDEN_COLUMN], ids=["bulk", "expat"])
def test_thirty_thousand_overlapping_merges_of_the_whole_sheet_are_cut(
    tmp_path: Path, extra: str
) -> None:
    """Each costs 11 cells (the nine it clears, two rows its value is repeated in): past
    doc2md's 200,000 cells, and past 300,000 given to design-diff."""
    path = merged_xlsx(tmp_path / "merges.xlsx", TABLE, [WHOLE_SHEET] * 30_000, extra)
    code, report = doc2md_capped(path, "-d", tmp_path / "out")
    rules = [f["rule_id"] for f in report["findings"]]
    assert (code, rules) == (0, ["convert.ok", "convert.truncated"])
    code, report = design_diff("excel", "--before", path, "--after", path, "--max-cells", "300000")
    assert (code, report["error_code"]) == (2, "INVALID_WORKBOOK")
