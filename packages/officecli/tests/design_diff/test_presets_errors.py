"""Presets (shipped and a team's own), and bad input: exit 2 with a code, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import api_rows, patch_part, write_book

from agentcli.main import run
from officecli.design_diff.commands import APP

Diff = Callable[..., tuple[int, dict[str, Any]]]


def _table_sheet(length: int, nullable: str) -> list[list[Any]]:
    return [
        ["項番", "論理名", "物理名", "データ型", "桁数", "NULL", "備考"],
        [1, "ID", "id", "int", length, nullable, ""],
        [2, "名前", "name", "varchar", 50, "○", "x"],
    ]


def test_table_preset_keys_on_physical_name(diff: Diff) -> None:
    old, new = _table_sheet(12, "○"), _table_sheet(10, "")  # narrowed: errors
    new[1][0], new[2][0] = 2, 1  # sequence numbers renumbered: ignored
    new[1][6] = "主キー"
    _, report = diff({"T": old}, {"T": new}, "--type", "table")
    assert [(f["rule_id"], f["field"], f["severity"]) for f in report["findings"]] == [
        ("cell.changed", "桁数", "error"),
        ("cell.changed", "NULL", "error"),
        ("cell.changed", "備考", "warning"),
    ]


def test_screen_preset_keys_on_item_id(diff: Diff) -> None:
    def sheet(required: str) -> list[list[Any]]:
        return [
            ["No.", "項目ID", "項目名", "必須"],
            [1, "btnOk", "OK", required],
            [2, "txt", "名", ""],
        ]

    _, report = diff({"G": sheet("")}, {"G": sheet("○")}, "--type", "screen")
    assert [(f["location"], f["severity"]) for f in report["findings"]] == [
        ("G!D2 (項目ID=btnOk)", "error")
    ]


def test_presets_command_lists_the_four_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["presets"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert sorted(data) == ["api", "generic", "screen", "table"]
    assert (data["api"]["keys"], data["api"]["scope"], data["api"]["ignore"]) == (
        ["name"],
        "section",
        ["no"],
    )
    assert "物理名" in data["api"]["columns"]["name"]


def test_preset_file_of_a_team(tmp_path: Path, diff: Diff) -> None:
    preset = tmp_path / "team.yaml"
    preset.write_text(
        "name: team\ncolumns:\n  code: [コード]\n  price: [価格]\nkeys: [code]\n"
        "severity:\n  default: info\n  changed: {price: error}\n",
        encoding="utf-8",
    )
    old = [["価格", "コード"], [1, "a"], [2, "b"]]
    new = [["価格", "コード"], [2, "b"], [9, "a"]]
    _, report = diff({"S": old}, {"S": new}, "--preset-file", str(preset))
    assert [(f["rule_id"], f["location"], f["severity"]) for f in report["findings"]] == [
        ("row.moved", "S!B2 (コード=b)", "info"),
        ("cell.changed", "S!A3 (コード=a)", "error"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("columns:\n  a: [x]\nkeys: [b]\n", "team.yaml:3:8: 'b' is not a role of `columns`"),
        ("columns: [x]\n", "team.yaml:1:10: columns must be a mapping"),
        ("columns:\n  a: [x]\nseverity: {rules: {row.gone: error}}\n", "team.yaml:3:20: unknown key 'row.gone' in severity.rules (did you mean 'row.moved'?)"),
        ("columns:\n  a: [x\n", "team.yaml:3:1: expected ',' or ']', but got '<stream end>'"),
        ("columns:\n  a: [x]\nseverity: {default: fatal}\n", "team.yaml:3:21: severity must be one of error, warning, info"),
    ],
)  # fmt: skip
def test_invalid_preset_is_exit_2_with_file_line_column(
    tmp_path: Path, diff: Diff, text: str, message: str
) -> None:
    preset = tmp_path / "team.yaml"
    preset.write_text(text, encoding="utf-8")
    code, env = diff({"S": [["a", "b"]]}, {"S": [["a", "b"]]}, "--preset-file", str(preset))
    assert (code, env["error_code"], env["error"].replace(str(tmp_path) + "/", "")) == (
        2,
        "INVALID_PRESET",
        message,
    )


def test_unknown_key_names_the_closest_column(diff: Diff) -> None:
    code, env = diff({"S": api_rows()}, {"S": api_rows()}, "--key", "物理")
    assert (code, env["error_code"]) == (2, "UNKNOWN_COLUMN")
    assert env["suggestion"].startswith("did you mean '物理名'? (--key 物理名)")


def test_unknown_ignored_column_names_the_closest(diff: Diff) -> None:
    code, env = diff({"S": api_rows()}, {"S": api_rows()}, "--ignore", "論理")
    assert (code, env["error_code"], env["suggestion"]) == (
        2,
        "UNKNOWN_COLUMN",
        "the closest existing column is '論理名'",
    )


def test_key_column_missing_in_one_file(diff: Diff) -> None:
    new = api_rows()
    new[0][1] = "名前"
    code, env = diff({"S": api_rows()}, {"S": new}, "--type", "api")
    assert (code, env["error_code"]) == (2, "UNKNOWN_COLUMN")
    assert env["error"].endswith("not in sheet 'S' of the after file")


def test_sheet_without_header_is_exit_2(diff: Diff) -> None:
    code, env = diff({"S": [["タイトルだけ"]]}, {"S": [["タイトルだけ"]]})
    assert (code, env["error_code"]) == (2, "NO_HEADER")


@pytest.mark.parametrize(
    ("content", "name", "code"),
    [
        (b"not a zip", "a.xlsx", "BROKEN_FILE"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "locked.xlsx", "ENCRYPTED_FILE"),
        (b"a,b\n", "a.csv", "UNSUPPORTED_FORMAT"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "old.xls", "INVALID_WORKBOOK"),
    ],
)
def test_unreadable_workbooks_are_exit_2(
    tmp_path: Path, diff: Diff, content: bytes, name: str, code: str
) -> None:
    bad = tmp_path / name
    bad.write_bytes(content)
    good = write_book(tmp_path / "good.xlsx", {"S": api_rows()})
    before = bad.read_bytes()
    status, env = diff(bad, good)
    assert (status, env["error_code"], bad.read_bytes()) == (2, code, before)


def test_missing_file_and_output_onto_an_input(tmp_path: Path, diff: Diff) -> None:
    good = write_book(tmp_path / "good.xlsx", {"S": api_rows()})
    content = good.read_bytes()
    assert diff(tmp_path / "nope.xlsx", good)[1]["error_code"] == "INVALID_WORKBOOK"
    code, env = diff(good, good, "-o", str(good))
    assert (code, env["error_code"], good.read_bytes() == content) == (2, "OUTPUT_IS_INPUT", True)


def test_workbook_over_max_cells_is_refused_not_cut(diff: Diff) -> None:
    code, env = diff({"S": api_rows(5)}, {"S": api_rows(5)}, "--max-cells", "10")
    assert (code, env["error_code"], env["suggestion"]) == (
        2,
        "INVALID_WORKBOOK",
        "raise --max-cells or pass --sheet",
    )


@pytest.mark.parametrize(
    ("edit", "words", "error"),
    [
        (lambda xml: xml.replace("<worksheet", '<!DOCTYPE w [<!ENTITY a "aaaa">]><worksheet', 1), "DTD", "UNSAFE_FILE"),
        (lambda xml: xml[:-40], "not well formed", "BROKEN_FILE"),
    ],
    ids=["entities", "truncated"],
)  # fmt: skip
def test_unsafe_or_broken_sheet_xml_is_exit_2(
    tmp_path: Path, diff: Diff, edit: Callable[[str], str], words: str, error: str
) -> None:
    bad = patch_part(
        write_book(tmp_path / "bad.xlsx", {"S": api_rows()}), "xl/worksheets/sheet1.xml", edit
    )
    code, env = diff(bad, write_book(tmp_path / "good.xlsx", {"S": api_rows()}))
    assert (code, env["error_code"], words in env["error"]) == (2, error, True)


def test_the_type_option_offers_exactly_the_shipped_presets() -> None:
    """commands.py spells the choices out (importing the presets would slow every start):
    this keeps the two from drifting apart."""
    from officecli.design_diff.presets import PRESET_NAMES

    (excel_type,) = [a for a in APP.command("excel").args if a.flags[0] == "--type"]
    assert excel_type.choices == PRESET_NAMES


@pytest.mark.parametrize("name", ["api", "table", "screen", "generic"])
def test_a_shipped_preset_read_from_its_json_is_the_one_its_yaml_gives(name: str) -> None:
    from officecli.design_diff.presets import _read, builtin_path, load_preset, parse_preset

    path = builtin_path(name)
    assert load_preset(name, None) == parse_preset(_read(path, path.name), path.name)


def test_a_diff_with_a_shipped_preset_leaves_the_yaml_reader_unloaded(tmp_path: Path) -> None:
    import subprocess
    import sys

    before = write_book(tmp_path / "v1.xlsx", {"API": api_rows()})
    after = write_book(tmp_path / "v2.xlsx", {"API": api_rows()})
    script = (
        "import sys\nfrom pathlib import Path\nfrom officecli.design_diff import diff\n"
        f"report = diff(Path({str(before)!r}), Path({str(after)!r}), preset='api')\n"
        "print(len(report.findings), sorted(m for m in sys.modules if m.startswith('ruamel')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout == "0 []\n"
