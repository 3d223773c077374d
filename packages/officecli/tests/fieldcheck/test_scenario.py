"""The agent's expense scenario of issue 34, solved from the JSON report alone.

A Japanese office worker's expense CSV and rules given in words; five faults are planted,
and the truth is written down here. The agent names the key column, and every finding
then says which expense it is about: the answer needs no second look at the file.
"""

from __future__ import annotations

from pathlib import Path

from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

# The rules as the worker said them, then as a rules file.
#   1. 合計 is 金額 + 税額.
#   2. 申請日 lies within fiscal 2026 (2026-04-01 .. 2027-03-31).
#   3. 科目 is one of 交通費, 会議費, 消耗品費, 通信費.
#   4. An expense of 10,000 yen or more has a receipt (領収書 = あり).
#   5. No expense id appears twice.
RULES = """version: 1
name: 経費チェック
fields: {申請日: date, 金額: number, 税額: number, 合計: number}
masters: {科目: [交通費, 会議費, 消耗品費, 通信費]}
rules:
  - {id: EXP-1, type: sum_equals, total: 合計, parts: [金額, 税額]}
  - {id: EXP-2, type: range, field: 申請日, min: 2026-04-01, max: 2027-03-31}
  - {id: EXP-3, type: reference, field: 科目, master: 科目}
  - {id: EXP-4, type: enum, field: 領収書, values: [あり], when: {field: 金額, gte: 10000}}
  - {id: EXP-5, type: unique, fields: 経費ID}
"""

# The planted faults: (rule, expense id, column).
TRUTH = {
    ("EXP-1", "E0017", "合計"),  # 合計 off by 100 yen; E0017 is on line 18
    ("EXP-2", "E0005", "申請日"),  # filed in the previous fiscal year
    ("EXP-3", "E0023", "科目"),  # 接待費 is not an allowed account
    ("EXP-4", "E0011", "領収書"),  # 15,000 yen without a receipt
    ("EXP-5", "E0009", "経費ID"),  # the id E0009 is used twice (the second time on line 28)
}


def _expenses() -> str:
    rows = ["経費ID,申請日,社員番号,科目,金額,税額,合計,領収書"]
    for i in range(1, 30):
        number = 9 if i == 27 else i
        day = "2026-03-31" if i == 5 else f"2026-05-{i:02d}"
        account = "接待費" if i == 23 else ["交通費", "会議費", "消耗品費", "通信費"][i % 4]
        amount = 15000 if i in (11, 12) else 1000 + i * 10
        tax = amount // 10
        total = amount + tax + (100 if i == 17 else 0)
        receipt = "なし" if i == 11 or amount < 10000 else "あり"
        rows.append(f"E{number:04d},{day},S{i % 7:03d},{account},{amount},{tax},{total},{receipt}")
    return "\n".join(rows) + "\n"


def test_the_five_faults_are_found_and_named_from_json_alone(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "経費.csv", _expenses())
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES, encoding="utf-8")
    result = run_cli("validate", data, "-r", rules, "--key", "経費ID")
    assert result.code == 1
    report = result.json
    found = {(f["rule_id"], f["record"]["key"]["経費ID"], f["field"]) for f in report["findings"]}
    assert found == TRUTH
    assert report["summary"] == {"error": 5, "warning": 0, "info": 0}
    by_rule = {f["rule_id"]: f for f in report["findings"]}
    assert by_rule["EXP-1"]["location"] == "line 18 (経費ID=E0017)"
    assert by_rule["EXP-1"]["record"] == {"line": 18, "key": {"経費ID": "E0017"}}
    assert (by_rule["EXP-1"]["expected"], by_rule["EXP-1"]["actual"]) == ("1287", "1387")
    assert by_rule["EXP-5"]["record"]["line"] == 28
    assert by_rule["EXP-5"]["expected"] == "unique (first seen on line 10)"
    # The line numbers say what they count: the file's lines, the header being line 1.
    lines = data.read_text(encoding="utf-8").splitlines()
    for f in report["findings"]:
        assert lines[f["record"]["line"] - 1].startswith(f["record"]["key"]["経費ID"] + ",")
