"""The seed fieldcheck's spellings: `assert` for `expr`, `fields` on single-column rules."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from officecli_testkit.fieldcheck_helpers import HEAD, Findings, finding, run_cli, write_csv
from ruamel.yaml import YAML

from officecli.fieldcheck.schema import rules_schema

SEED_RULES = HEAD + (
    "  - {id: S1, type: required, fields: [name, dept]}\n"
    "  - {id: S2, type: expression, assert: 'qty > 0', field: qty}\n"
    "  - {id: S3, type: enum, fields: dept, values: [sales, dev]}\n"
)


def test_required_with_fields_checks_each_column(findings: Findings) -> None:
    rules = HEAD + "  - {id: S1, type: required, fields: [name, dept]}\n"
    assert findings(rules, "name,dept\nAda,dev\n,sales\nBob,\n") == [
        finding("S1", 3, "name", "name is required", "a value", "", "fill in name"),
        finding("S1", 4, "dept", "dept is required", "a value", "", "fill in dept"),
    ]


def test_assert_is_the_seed_spelling_of_expr(findings: Findings) -> None:
    rules = HEAD + "  - {id: S2, type: expression, assert: 'qty > 0', field: qty}\n"
    assert findings(rules, "qty\n1\n0\n") == [
        finding(
            "S2", 3, "qty", "expected qty > 0", "> 0", "0", "check the values the expression uses"
        ),
    ]


def test_pattern_with_fields_names_the_column(findings: Findings) -> None:
    rules = HEAD + "  - {id: P1, type: pattern, fields: [a, b], regex: '[0-9]+'}\n"
    assert [
        (f["location"], f["field"], f["actual"]) for f in findings(rules, "a,b\n1,x\ny,2\n")
    ] == [
        ("line 2", "b", "x"),
        ("line 3", "a", "y"),
    ]


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "{id: B1, type: required, field: a, fields: [a, b]}",
            "rules.yaml:3:40: `field` and `fields` are two spellings of one key; keep one",
        ),
        (
            "{id: B2, type: expression, expr: 'a > 0', assert: 'a > 1'}",
            "rules.yaml:3:47: `expr` and `assert` are two spellings of one key; keep one",
        ),
        (
            "{id: B3, type: required, fields: []}",
            "rules.yaml:3:38: `fields`: the column checked (or `fields`: each of a list); got []",
        ),
    ],
)
def test_both_spellings_or_an_empty_list_exit_2(tmp_path: Path, rule: str, message: str) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(HEAD + f"  - {rule}\n", encoding="utf-8")
    result = run_cli("check-rules", rules)
    assert (result.code, result.json["error_code"], result.json["error"]) == (
        2,
        "INVALID_RULES",
        message,
    )


def test_check_rules_and_meta_count_rules_of_the_file(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(SEED_RULES, encoding="utf-8")
    listed = run_cli("check-rules", rules).json["data"]["rules"]
    assert listed == [
        {"id": "S1", "type": "required", "severity": "error", "fields": ["name", "dept"]},
        {"id": "S2", "type": "expression", "severity": "error"},
        {"id": "S3", "type": "enum", "severity": "error", "fields": ["dept"]},
    ]
    data = write_csv(tmp_path / "d.csv", "name,dept,qty\nAda,dev,1\n")
    result = run_cli("validate", data, "-r", rules)
    assert (result.code, result.json["meta"]["rules"]) == (0, 3)


def test_the_published_schema_takes_either_spelling_never_both() -> None:
    schema = rules_schema()
    jsonschema.validate(YAML(typ="safe").load(SEED_RULES), schema)
    for both in (
        "{id: B1, type: required, field: a, fields: [a, b]}",
        "{id: B2, type: expression, expr: 'a > 0', assert: 'a > 1'}",
        "{id: B3, type: required}",
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(YAML(typ="safe").load(HEAD + f"  - {both}\n"), schema)
