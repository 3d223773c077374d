"""The header row is found under a title block: the row naming the --key (or the
preset's key roles and vocabulary); a misspelled --key gets `did you mean`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import rules

Diff = Callable[..., tuple[int, dict[str, Any]]]
TITLE = [["メソッド", "GET"], ["パス", "/users/{id}"]]
TABLE: list[list[Any]] = [["物理名", "型", "桁数"], ["id", "integer", 10], ["name", "string", 50]]


def _sheet(blank_between: bool, length: int = 50, method: str = "GET") -> list[list[Any]]:
    title = [[TITLE[0][0], method], TITLE[1]]
    table = [list(r) for r in TABLE]
    table[2][2] = length
    return [*title, *([[None]] if blank_between else []), *table]


@pytest.mark.parametrize("blank_between", [True, False])
def test_the_key_finds_the_header_under_a_title_block(diff: Diff, blank_between: bool) -> None:
    old, new = _sheet(blank_between), _sheet(blank_between, 40, "POST")
    code, report = diff({"API": old}, {"API": new}, "--key", "物理名")
    assert (code, rules(report)) == (
        1,
        [
            ("cell.changed", f"API!C{6 if blank_between else 5} (物理名=name)"),
            ("cell.changed", "API!B1 (メソッド)"),
        ],
    )
    assert report["meta"]["tables"] == 1


@pytest.mark.parametrize("blank_between", [True, False])
def test_a_misspelled_key_gets_did_you_mean(diff: Diff, blank_between: bool) -> None:
    code, env = diff({"API": _sheet(blank_between)}, {"API": _sheet(blank_between)}, "--key", "物理名X")  # fmt: skip
    assert (code, env["error_code"], env["data"]["closest"]) == (2, "UNKNOWN_COLUMN", "物理名")
    assert (
        env["suggestion"] == "did you mean '物理名'? (--key 物理名); columns are: 物理名, 型, 桁数"
    )


def test_the_preset_vocabulary_finds_the_header_under_a_title_block(diff: Diff) -> None:
    old = [["API定義書"], *TITLE, ["No", "物理名", "型", "必須"], [1, "id", "integer", "○"]]
    new = [["API定義書"], *TITLE, ["No", "物理名", "型", "必須"], [1, "id", "string", "○"]]
    _, report = diff({"API": old}, {"API": new}, "--type", "api")
    assert rules(report) == [("cell.changed", "API!C5 (物理名=id)")]
