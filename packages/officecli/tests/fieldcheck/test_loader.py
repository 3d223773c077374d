"""Bad rules files: exit 2 with the YAML line and column of the problem."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from officecli_testkit.fieldcheck_helpers import run_cli

from officecli.fieldcheck.errors import RulesFileError
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.schema import rules_schema

GOOD = """version: 1
name: expenses
fields:
  金額: number
  日付: {type: date}
datasets:
  budget: budget.csv
masters:
  depts: [sales, dev]
rules:
  - {id: EXP-001, type: required, field: 金額}
  - id: EXP-002
    type: reference
    field: dept
    master: depts
    when: {field: 金額, gt: 0}
  - {id: EXP-003, type: sum_equals, total: 合計, parts: [金額, 税額], tolerance: 0.5}
  - {id: EXP-004, type: expression, expr: "合計 > 0", severity: warning}
  - {id: EXP-005, type: aggregate_equals, group_by: dept, function: sum, field: 金額,
     dataset: budget, target: 予算}
"""


def _load(tmp_path: Path, text: str) -> RulesFileError:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesFileError) as info:
        load_rules(path)
    return info.value


def test_good_rules_load_and_match_the_published_schema(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(GOOD, encoding="utf-8")
    ruleset = load_rules(path)
    assert [r.id for r in ruleset.rules] == ["EXP-001", "EXP-002", "EXP-003", "EXP-004", "EXP-005"]
    assert ruleset.fields == {"金額": "number", "日付": "date"}
    assert ruleset.datasets["budget"].path == tmp_path / "budget.csv"
    from ruamel.yaml import YAML

    jsonschema.validate(YAML(typ="safe").load(GOOD), rules_schema())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "version: 1\nrules:\n  - {id: A, type: requird, field: x}\n",
            "rules.yaml:3:19: rule type must be one of",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: required}\n",
            "rules.yaml:3:5: a required rule needs `field`",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: required, field: x, colour: red}\n",
            "rules.yaml:3:39: unknown key 'colour'",
        ),
        ("version: 2\nrules: []\n", "rules.yaml:1:10: version must be 1"),
        (
            "version: 1\nrules:\n  - {id: A, type: pattern, field: x, regex: '('}\n",
            "rules.yaml:3:45: `regex`: bad regular expression",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: expression, expr: 'a.b'}\n",
            "rules.yaml:3:37: expression error at character 2: attribute access",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: required, field: x}\n  - {id: A, type: required, field: y}\n",
            "rules.yaml:4:10: duplicate rule id 'A'",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: range, field: x}\n",
            "rules.yaml:3:5: a range rule needs `min`, `max` or both",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: compare, left: x, op: '=<', value: 1}\n",
            "rules.yaml:3:41: `op`",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: reference, field: x, master: nope}\n",
            "rules.yaml:3:48: `master`",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: required, field: x, when: {field: y}}\n",
            "a condition on a field needs one of",
        ),
        (
            "version: 1\nrules:\n  - {id: A, type: required, field: x, severity: fatal}\n",
            "rules.yaml:3:49: severity must be one of",
        ),
        ("version: 1\nrules:\n  - id: A\n    type: required\n  field: x\n", "rules.yaml:5:3:"),
        (
            "version: 1\nfields: {a: money}\nrules: []\n",
            "rules.yaml:2:13: field 'a': type must be one of",
        ),
    ],
)
def test_bad_rules_point_at_the_line(tmp_path: Path, text: str, message: str) -> None:
    assert message in _load(tmp_path, text).message


def test_check_rules_cli_exit_2_with_line(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("version: 1\nrules:\n  - {id: A, type: requird, field: x}\n", encoding="utf-8")
    result = run_cli("check-rules", path)
    assert result.code == 2
    env = result.json
    assert env["error_code"] == "INVALID_RULES"
    assert env["error"].startswith("rules.yaml:3:19: rule type must be one of required, type,")
    assert "(did you mean 'required'?)" in env["error"]
    assert env["data"] == {"file": str(path), "line": 3, "column": 19}


def test_check_rules_cli_ok(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(GOOD, encoding="utf-8")
    result = run_cli("check-rules", path)
    assert result.code == 0
    assert result.json["data"]["rules"][3] == {
        "id": "EXP-004",
        "type": "expression",
        "severity": "warning",
    }


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    # Seven levels of ten aliases each: 10**7 values from a few hundred bytes.
    body = "version: 1\nmasters:\n  m:\n    values:\n" + "".join(
        f"      - &a{i} [{', '.join([f'*a{i - 1}'] * 10) if i else 'x'}]\n" for i in range(7)
    )
    error = _load(tmp_path, body + "rules: []\n")
    assert error.message == "rules file expands to more than 100000 values (YAML aliases?)"
