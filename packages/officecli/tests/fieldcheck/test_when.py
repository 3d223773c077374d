"""`when`: a rule only checks the rows matching its conditions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Findings = Callable[..., list[dict[str, str]]]
DATA = "kind,amount,note,day\nexpense,100,,2026-04-01\nincome,200,,2026-05-01\nexpense,300,x,2026/6/1\n,400,,2026-07-01\n"


def rows_flagged(findings: Findings, when: str) -> list[str]:
    rules = f"version: 1\nrules:\n  - {{id: W1, type: required, field: note, when: {when}}}\n"
    return [f["location"] for f in findings(rules, DATA)]


@pytest.mark.parametrize(
    ("when", "rows"),
    [
        ("{field: kind, equals: expense}", ["line 2"]),
        ("{field: kind, in: [income, expense]}", ["line 2", "line 3"]),
        ("{field: kind, present: false}", ["line 5"]),
        ("{field: kind, present: true}", ["line 2", "line 3"]),
        ("{field: amount, gt: 100}", ["line 3", "line 5"]),
        ("{field: amount, gte: 100, lt: 400}", ["line 2", "line 3"]),
        ("{field: amount, lte: 200}", ["line 2", "line 3"]),
        ("{field: amount, equals: 400}", ["line 5"]),
        ("{field: day, gte: 2026-05-01}", ["line 3", "line 5"]),
        ("{all: [{field: kind, equals: expense}, {field: amount, gt: 50}]}", ["line 2"]),
        ("{any: [{field: kind, equals: income}, {field: amount, gt: 350}]}", ["line 3", "line 5"]),
        ("{not: {field: kind, equals: expense}}", ["line 3", "line 5"]),
        ("[{field: kind, present: true}, {field: amount, lt: 250}]", ["line 2", "line 3"]),
    ],
)
def test_when_selects_rows(findings: Findings, when: str, rows: list[str]) -> None:
    assert rows_flagged(findings, when) == rows


def test_when_also_limits_unique(findings: Findings) -> None:
    rules = (
        "version: 1\nrules:\n"
        "  - {id: U1, type: unique, fields: amount, when: {field: kind, equals: a}}\n"
    )
    got = findings(rules, "kind,amount\na,1\nb,1\na,1\n")
    assert [(f["location"], f["expected"]) for f in got] == [
        ("line 4", "unique (first seen on line 2)")
    ]
