"""The agent's scenario: "what changed between these two versions of the table
definition?" The truth is written down here; the answer must give it from the JSON
report alone (no reading the workbooks): each change, its key, its column, its severity
and its direction, and the rename as one change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import write_book

from agentcli.main import run
from officecli.design_diff.commands import APP

TITLE: list[list[str | None]] = [
    ["テーブル定義書"],
    ["テーブル名", "users"],
    ["作成者", "佐藤"],
    [None],
]
HEADER = ["No", "論理名", "物理名", "データ型", "桁数", "NOT NULL", "PK", "デフォルト", "備考"]
V1 = [
    [1, "ID", "id", "bigint", None, "○", "○", None, None],
    [2, "氏名", "name", "varchar", 100, "○", None, None, None],
    [3, "メール", "email", "varchar", 255, "○", None, None, None],
    [4, "郵便番号", "zip", "char", 10, None, None, None, None],
    [5, "年齢", "age", "bigint", None, None, None, None, None],
    [6, "FAX", "fax", "varchar", 20, None, None, None, "廃止予定"],
    [7, "状態", "status", "varchar", 10, None, None, "active", None],
    [8, "作成日時", "created_at", "timestamp", None, "○", None, None, None],
]
V2 = [
    [1, "ID", "id", "bigint", None, "○", "○", None, None],
    [2, "氏名", "full_name", "varchar", 100, "○", None, None, None],  # 1. renamed
    [3, "メール", "email", "varchar", 320, "○", None, None, None],  # 2. length widened
    [4, "郵便番号", "zip", "char", 7, None, None, None, None],  # 3. length narrowed
    [5, "年齢", "age", "int", None, None, None, None, None],  # 4. type narrowed
    # 5. fax removed
    [6, "電話番号", "phone", "varchar", 20, None, None, None, None],  # 6. added
    [7, "状態", "status", "varchar", 10, "○", None, "active", None],  # 7. required now
    [8, "作成日時", "created_at", "timestamp", None, "○", None, None, None],
]
# (rule, key in the after file or the before file when removed, column, severity, direction)
TRUTH = [
    ("row.renamed", "full_name", "物理名", "error", ""),
    ("cell.changed", "email", "桁数", "info", "widened"),
    ("cell.changed", "zip", "桁数", "error", "narrowed"),
    ("cell.changed", "age", "データ型", "error", "narrowed"),
    ("row.removed", "fax", "物理名", "error", ""),
    ("row.added", "phone", "物理名", "warning", ""),
    ("cell.changed", "status", "NOT NULL", "error", "narrowed"),
]


def _answer(report: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """What an agent reads off the JSON: the key is in the location `(物理名=KEY)`."""
    out = []
    for f in report["findings"]:
        key = f["location"].partition("(物理名=")[2].rstrip(")")
        direction = f.get("details", {}).get("direction", "")
        out.append((f["rule_id"], key, f["field"], f["severity"], direction))
    return out


def test_the_seven_changes_of_a_table_definition_from_json_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = write_book(tmp_path / "users_v1.xlsx", {"users": [*TITLE, HEADER, *V1]})
    after = write_book(tmp_path / "users_v2.xlsx", {"users": [*TITLE, HEADER, *V2]})
    code = run(APP, ["excel", "--before", str(before), "--after", str(after), "--type", "table"])
    report = json.loads(capsys.readouterr().out)
    assert (code, _answer(report)) == (1, TRUTH)
    renamed = report["findings"][0]
    assert renamed["details"] == {"old_key": "物理名=name", "new_key": "物理名=full_name"}
    meta = report["meta"]
    assert {
        k: meta[k]
        for k in ("rows_renamed", "rows_added", "rows_removed", "cells_changed", "columns_renamed")
    } == {
        "rows_renamed": 1,
        "rows_added": 1,
        "rows_removed": 1,
        "cells_changed": 4,
        "columns_renamed": 0,
    }
    assert report["summary"] == {"error": 5, "warning": 1, "info": 1}
    # the gate an agent would use: errors fail, the widened length alone would not
    assert run(APP, ["excel", "--before", str(before), "--after", str(after), "--type", "table", "--fail-on", "error"]) == 1  # fmt: skip
