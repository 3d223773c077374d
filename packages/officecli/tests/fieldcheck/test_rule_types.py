"""Every rule type with passing and failing rows, and the exact findings."""

from __future__ import annotations

from pathlib import Path

from officecli_testkit.fieldcheck_helpers import HEAD, Findings, finding


def test_required(findings: Findings) -> None:
    rules = HEAD + "  - {id: R1, type: required, field: name, severity: warning}\n"
    assert findings(rules, "name,x\nAda,1\n  ,2\n,3\n") == [
        finding("R1", 3, "name", "name is required", "a value", "", "fill in name", "warning"),
        finding("R1", 4, "name", "name is required", "a value", "", "fill in name", "warning"),
    ]


def test_type_rule_reports_once_with_its_own_id(findings: Findings) -> None:
    rules = HEAD + (
        "  - {id: T1, type: type, field: qty, value_type: integer, severity: warning,"
        " message: '{field} must be whole', suggestion: use digits}\n"
        "  - {id: T2, type: range, field: qty, max: 5}\n"
    )
    assert findings(rules, "qty\n1\n1.5\n９\n") == [
        finding("T1", 3, "qty", "qty must be whole", "integer", "1.5", "use digits", "warning"),
        finding("T2", 4, "qty", "qty must be <= 5", "<= 5", "９", "make qty <= 5"),
    ]


def test_declared_type_gives_schema_type(findings: Findings) -> None:
    rules = "version: 1\nfields: {qty: integer}\nrules:\n  - {id: T1, type: required, field: qty}\n"
    assert findings(rules, "qty\n1\n1.5\n2\n") == [
        finding(
            "schema.type",
            3,
            "qty",
            "qty is not a valid integer",
            "integer",
            "1.5",
            "write a whole number such as 1234 or 1,234",
        ),
    ]


def test_range_numbers_and_dates(findings: Findings) -> None:
    rules = HEAD + (
        "  - {id: R1, type: range, field: amount, min: 0, max: 100}\n"
        "  - {id: R2, type: range, field: day, min: 2026-04-01}\n"
    )
    data = "amount,day\n50,2026/4/1\n-1,2026-03-31\n¥101,2026年5月1日\n"
    assert findings(rules, data) == [
        finding(
            "R1",
            3,
            "amount",
            "amount must be between 0 and 100",
            "between 0 and 100",
            "-1",
            "make amount between 0 and 100",
        ),
        finding(
            "R2",
            3,
            "day",
            "day must be >= 2026-04-01",
            ">= 2026-04-01",
            "2026-03-31",
            "make day >= 2026-04-01",
        ),
        finding(
            "R1",
            4,
            "amount",
            "amount must be between 0 and 100",
            "between 0 and 100",
            "¥101",
            "make amount between 0 and 100",
        ),
    ]


def test_length(findings: Findings) -> None:
    rules = HEAD + "  - {id: L1, type: length, field: code, min: 2, max: 3}\n"
    assert findings(rules, "code\nab\nabcd\na\n\n") == [
        finding(
            "L1",
            3,
            "code",
            "code must have 2 to 3 characters",
            "2 to 3 characters",
            "abcd",
            "shorten or complete code",
        ),
        finding(
            "L1",
            4,
            "code",
            "code must have 2 to 3 characters",
            "2 to 3 characters",
            "a",
            "shorten or complete code",
        ),
        # The empty last line is not a record, and is said so (issue 34).
        finding(
            "row.blank",
            5,
            "",
            "line 5 is blank",
            "a record",
            "",
            "remove the blank line, or fill in the record it stands for",
            "info",
        ),
    ]


def test_pattern(findings: Findings) -> None:
    rules = HEAD + "  - {id: P1, type: pattern, field: code, regex: 'E-\\d{3}'}\n"
    assert findings(rules, "code\nE-001\nE-01\n") == [
        finding(
            "P1",
            3,
            "code",
            "code has an unexpected format",
            "matches E-\\d{3}",
            "E-01",
            "write code as E-\\d{3}",
        ),
    ]


def test_enum_text_and_numbers(findings: Findings) -> None:
    rules = "version: 1\nfields: {rate: number}\nrules:\n" + (
        "  - {id: E1, type: enum, field: dept, values: [sales, dev]}\n"
        "  - {id: E2, type: enum, field: rate, values: [8, 10]}\n"
    )
    data = "dept,rate\nsales,10\nops,10.0\ndev,5\n"
    assert findings(rules, data) == [
        finding(
            "E1",
            3,
            "dept",
            "dept is not an allowed value",
            "one of: sales, dev",
            "ops",
            "use one of: sales, dev",
        ),
        finding(
            "E2",
            4,
            "rate",
            "rate is not an allowed value",
            "one of: 8, 10",
            "5",
            "use one of: 8, 10",
        ),
    ]


def test_unique_single_and_combined(findings: Findings) -> None:
    rules = HEAD + (
        "  - {id: U1, type: unique, fields: id}\n  - {id: U2, type: unique, fields: [day, item]}\n"
    )
    data = "id,day,item\n1,mon,a\n2,mon,b\n1,tue,a\n3,mon,a\n"
    assert findings(rules, data) == [
        finding(
            "U1",
            4,
            "id",
            "id repeats an earlier row",
            "unique (first seen on line 2)",
            "1",
            "make id unique",
        ),
        finding(
            "U2",
            5,
            "day, item",
            "day, item repeats an earlier row",
            "unique (first seen on line 2)",
            "mon / a",
            "make day, item unique",
        ),
    ]


def test_compare_with_column_and_value(findings: Findings) -> None:
    rules = HEAD + (
        "  - {id: C1, type: compare, left: start, op: '<=', right: end}\n"
        "  - {id: C2, type: compare, left: qty, op: '>', value: 0}\n"
    )
    data = "start,end,qty\n2026-04-01,2026-04-02,1\n2026-04-03,2026/4/2,0\n"
    assert findings(rules, data) == [
        finding(
            "C1",
            3,
            "start",
            "start must be <= end",
            "<= 2026-04-02",
            "2026-04-03",
            "check start against end",
        ),
        finding("C2", 3, "qty", "qty must be > 0", "> 0", "0", "check qty against 0"),
    ]


def test_sum_equals_with_tolerance_and_blank_parts(findings: Findings) -> None:
    rules = HEAD + "  - {id: S1, type: sum_equals, total: t, parts: [a, b], tolerance: 1}\n"
    data = "a,b,t\n1,2,3\n1,2,4\n1,2,5\n5,,5\n"
    assert findings(rules, data) == [
        finding("S1", 4, "t", "t must equal a + b", "3", "5", "check t or its parts (a, b)"),
    ]


def test_reference_inline_and_dataset_master(findings: Findings, tmp_path: Path) -> None:
    (tmp_path / "depts.csv").write_text("code,name\nS,sales\nD,dev\n", encoding="utf-8")
    rules = (
        "version: 1\ndatasets: {depts: depts.csv}\n"
        "masters:\n  codes: {dataset: depts, column: code}\n  kinds: [a, b]\n"
        "rules:\n"
        "  - {id: M1, type: reference, field: dept, master: codes}\n"
        "  - {id: M2, type: reference, field: kind, master: kinds}\n"
    )
    data = "dept,kind\nS,a\nX,c\n"
    assert findings(rules, data) == [
        finding(
            "M1",
            3,
            "dept",
            "dept is not in master codes",
            "a value of master codes",
            "X",
            "use a value listed in codes",
        ),
        finding(
            "M2",
            3,
            "kind",
            "kind is not in master kinds",
            "a value of master kinds",
            "c",
            "use a value listed in kinds",
        ),
    ]


def test_expression_comparison_and_boolean(findings: Findings) -> None:
    rules = HEAD + (
        "  - {id: X1, type: expression, expr: '合計 == 金額 + 税額'}\n"
        "  - {id: X2, type: expression, expr: 'abs(金額) < 10000 and not blank(メモ)', field: メモ}\n"
    )
    data = "金額,税額,合計,メモ\n8000,800,8800,ok\n8000,800,8900,\n"
    assert findings(rules, data) == [
        finding(
            "X1",
            3,
            "合計",
            "expected 合計 == 金額 + 税額",
            "8800",
            "8900",
            "check the values the expression uses",
        ),
        finding(
            "X2",
            3,
            "メモ",
            "expected abs(金額) < 10000 and not blank(メモ)",
            "true",
            "false",
            "check the values the expression uses",
        ),
    ]


def test_aggregate_equals(findings: Findings, tmp_path: Path) -> None:
    (tmp_path / "budget.csv").write_text(
        "部署,予算\n営業,300\n開発,100\n総務,0\n", encoding="utf-8"
    )
    rules = (
        "version: 1\ndatasets: {budget: budget.csv}\nrules:\n"
        "  - {id: A1, type: aggregate_equals, group_by: 部署, function: sum, field: 金額,"
        " dataset: budget, key: 部署, target: 予算}\n"
    )
    data = "部署,金額\n営業,100\n開発,50\n営業,200\n人事,5\n"
    assert findings(rules, data) == [
        {
            "rule_id": "A1",
            "severity": "error",
            "message": "sum(金額) for 部署=開発 does not match budget.csv",
            "location": "budget.csv line 3",
            "record": {"line": 3, "file": "budget.csv"},
            "field": "予算",
            "expected": "100",
            "actual": "50",
            "suggestion": "check the rows of 部署=開発 or the value in budget.csv",
        },
        {
            "rule_id": "A1",
            "severity": "error",
            "message": "sum(金額) for 部署=人事 does not match budget.csv",
            "location": "line 5",
            "record": {"line": 5},
            "field": "sum(金額)",
            "expected": "a row in budget.csv",
            "actual": "5",
            "suggestion": "check the rows of 部署=人事 or the value in budget.csv",
        },
    ]


def test_aggregate_count(findings: Findings, tmp_path: Path) -> None:
    (tmp_path / "n.csv").write_text("g,n\na,2\nb,2\n", encoding="utf-8")
    rules = (
        "version: 1\ndatasets: {n: n.csv}\nrules:\n"
        "  - {id: A2, type: aggregate_equals, group_by: g, function: count, dataset: n, target: n}\n"
    )
    got = findings(rules, "g\na\nb\na\n")
    assert [(f["location"], f["expected"], f["actual"]) for f in got] == [
        ("n.csv line 3", "2", "1")
    ]


def test_expression_with_computed_left_side_reports_its_value(findings: Findings) -> None:
    rules = HEAD + "  - {id: X3, type: expression, expr: 'abs(金額) * 2 <= 100'}\n"
    assert findings(rules, "金額\n-50\n-60\nabc\n") == [
        finding(
            "X3",
            3,
            "金額",
            "expected abs(金額) * 2 <= 100",
            "<= 100",
            "120",
            "check the values the expression uses",
        ),
    ]
