"""The expression language: what it computes and what it refuses."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from officecli.fieldcheck.expr_eval import ERROR, compile_node
from officecli.fieldcheck.expr_parse import ExpressionError, names_in, parse_expression


def run(expr: str, **row: Any) -> Any:
    """Evaluate on a one-row chunk."""
    cols = {k: [v] for k, v in row.items()}
    return compile_node(parse_expression(expr))(cols, 1)[0]


@pytest.mark.parametrize(
    ("expr", "row", "expected"),
    [
        ("合計 == 金額 + 税額", {"合計": 8800.0, "金額": 8000.0, "税額": 800.0}, True),
        ("a * 2 + 1 > 10 or b", {"a": 2.0, "b": False}, False),
        ("0.1 + 0.2 == 0.3", {}, True),
        ("2 ** 10", {}, 1024.0),
        ("-a // 3 + a % 3", {"a": 7.0}, -2.0),
        ("not (a >= 1 and a <= 5)", {"a": 3.0}, False),
        ("round(a, 1)", {"a": 2.345}, 2.3),
        ("min(a, 5) + max(a, 5) + abs(-1)", {"a": 3.0}, 9.0),
        ("len('abc') == 3 and contains(s, 'bc')", {"s": "abcd"}, True),
        ("matches(s, '[A-Z]-\\\\d+')", {"s": "E-12"}, True),
        ("blank(x) and not blank(y)", {"x": None, "y": "v"}, True),
        ("days(date('2026/4/1'), d)", {"d": date(2026, 4, 11)}, 10.0),
        ("year(d) * 100 + month(d) + day(d)", {"d": date(2026, 4, 1)}, 202605.0),
        ("number('¥1,000') == 1000", {}, True),
        ("`税 額` + 1", {"税 額": 1.0}, 2.0),
        ("x == null and true != false", {"x": None}, True),
    ],
)
def test_evaluates(expr: str, row: dict[str, Any], expected: Any) -> None:
    assert run(expr, **row) == expected


@pytest.mark.parametrize(
    ("expr", "row"),
    [
        ("a + 1", {"a": None}),
        ("a + 1", {"a": "text"}),
        ("a / 0", {"a": 1.0}),
        ("a < 'x'", {"a": 1.0}),
        ("a ** b", {"a": 10.0, "b": 1000.0}),
        ("'ab' * 3", {}),
        ("year(s)", {"s": "not a date"}),
    ],
)
def test_runtime_failures_are_errors_not_exceptions(expr: str, row: dict[str, Any]) -> None:
    assert run(expr, **row) is ERROR


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("a.__class__", "attribute access is not allowed"),
        ("x.real", "attribute access is not allowed"),
        ("__import__('os')", "double underscores"),
        ("import os", "Python keyword 'import'"),
        ("lambda: 1", "Python keyword 'lambda'"),
        ("a[0]", "indexing is not allowed"),
        ("2 ** 1000", "exponent larger than 100"),
        ("2 ** -500", "exponent larger than 100"),
        ("eval('1')", "unknown function 'eval'"),
        ("open('f')", "unknown function 'open'"),
        ("a = 1", "use == to compare"),
        ("1 < a < 3", "chained comparisons"),
        ("abs(1, 2)", "abs() takes 1..1 arguments"),
        ("(1 + 2", "expected ')'"),
        ("'open", "unterminated text literal"),
        ("1 +", "unexpected the end"),
    ],
)
def test_refused(expr: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_expression(expr)


def test_error_position_points_at_the_construct() -> None:
    with pytest.raises(ExpressionError) as info:
        parse_expression("a + b.c")
    assert info.value.position == 5


def test_names_in_order_of_use() -> None:
    assert names_in(parse_expression("max(b, a) + b * c")) == ["b", "a", "c"]
