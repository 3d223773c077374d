"""`fieldcheck init`: a commented rules skeleton for a data file (issue 34), and
`list-rules` starting with the file layout."""

from __future__ import annotations

from pathlib import Path

from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.ruletypes import FILE_EXAMPLE, TOP_KEYS

DATA = "経費ID,申請日,部署,金額,税額,メモ\n" + "".join(
    f"E{i:04d},2026-04-{i:02d},{'営業総務'[i % 2 * 2 : i % 2 * 2 + 2]},{i * 100},{i * 10},"
    f"{'タクシー' if i % 3 else ''}\n"
    for i in range(1, 25)
)


def test_dry_run_prints_a_skeleton_that_loads_and_passes_on_its_data(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "expenses.csv", DATA)
    result = run_cli("init", data, "--dry-run")
    assert result.code == 0
    answer = result.json["data"]
    target = tmp_path / "expenses.rules.yaml"
    assert (answer["rules_file"], answer["written"]) == (str(target), False)
    assert not target.exists()
    text = answer["text"]
    assert text.startswith("# fieldcheck rules for expenses.csv, written by `fieldcheck init`")
    assert "# Layout: version (always 1), name, key, fields, datasets, masters, rules.\n" in text
    rules = tmp_path / "rules.yaml"
    rules.write_text(text, encoding="utf-8")
    ruleset = load_rules(rules)
    assert ruleset.key == ["経費ID"]
    assert ruleset.fields == {
        "経費ID": "string",
        "申請日": "date",
        "部署": "string",
        "金額": "integer",
        "税額": "integer",
        "メモ": "string",
    }
    assert [(r.id, r.type) for r in ruleset.rules] == [
        ("R01", "required"),
        ("R01", "required"),
        ("R01", "required"),
        ("R01", "required"),
        ("R01", "required"),
        ("R02", "unique"),
        ("R03", "range"),
        ("R04", "enum"),
        ("R05", "length"),
    ]
    commented = [line for line in text.splitlines() if line.startswith("  # - {id: ")]
    assert [line.split(", ")[1] for line in commented] == [
        "type: pattern",
        "type: compare",
        "type: sum_equals",
        "type: expression",
        "type: reference",
        "type: required",
    ]
    assert "when: {field: 金額, gte: 10000}" in commented[-1]
    validated = run_cli("validate", data, "-r", rules)
    assert (validated.code, validated.json["summary"]) == (0, {"error": 0, "warning": 0, "info": 0})


def test_init_writes_once_and_never_overwrites(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "expenses.csv", DATA)
    target = tmp_path / "mine.yaml"
    first = run_cli("init", data, "-o", target)
    assert (first.code, first.json["data"]["written"]) == (0, True)
    written = target.read_text(encoding="utf-8")
    assert written == first.json["data"]["text"]
    target.write_text("version: 1\nrules: []\n", encoding="utf-8")  # the user's edits
    again = run_cli("init", data, "-o", target)
    assert (again.code, again.json["error_code"]) == (2, "OUTPUT_EXISTS")
    assert target.read_text(encoding="utf-8") == "version: 1\nrules: []\n"


def test_init_refuses_the_data_as_output(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "expenses.csv", DATA)
    result = run_cli("init", data, "-o", data)
    assert (result.code, result.json["error_code"]) == (2, "OUTPUT_IS_INPUT")
    assert data.read_text(encoding="utf-8") == DATA


def test_names_that_yaml_would_misread_are_quoted(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", "yes,a: b,#no,12\n1,2,3,4\n")
    text = run_cli("init", data, "--dry-run").json["data"]["text"]
    rules = tmp_path / "rules.yaml"
    rules.write_text(text, encoding="utf-8")
    assert list(load_rules(rules).fields) == ["yes", "a: b", "#no", "12"]


def test_list_rules_starts_with_the_file_layout() -> None:
    listed = run_cli("list-rules").json["data"]
    assert next(iter(listed)) == "file_layout"
    layout = listed["file_layout"]
    assert [k["name"] for k in layout["keys"]] == [
        "version",
        "name",
        "key",
        "fields",
        "datasets",
        "masters",
        "rules",
    ]
    assert [k["name"] for k in layout["keys"] if k["required"]] == ["version", "rules"]
    assert layout["example"] == FILE_EXAMPLE


def test_the_layout_example_is_a_valid_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(FILE_EXAMPLE, encoding="utf-8")
    assert load_rules(path).key == ["id"]


def test_the_schema_and_the_loader_take_the_same_top_keys() -> None:
    schema = run_cli("schema").json["data"]
    assert list(schema["properties"]) == [k.name for k in TOP_KEYS]
    assert schema["required"] == [k.name for k in TOP_KEYS if k.required]


def test_a_file_without_rows_gets_a_skeleton_that_loads(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "empty.csv", "id,amount\n")
    text = run_cli("init", data, "--dry-run").json["data"]["text"]
    rules = tmp_path / "rules.yaml"
    rules.write_text(text, encoding="utf-8")
    ruleset = load_rules(rules)
    assert (ruleset.rules, ruleset.fields) == ([], {"id": "string", "amount": "string"})
