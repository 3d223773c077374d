"""The formula scanner behind sheet renames: what is a reference to a sheet and what is not."""

from __future__ import annotations

import pytest

from officecli.office_replace.formulas import rewrite_formula
from officecli.office_replace.sheetnames import name_problem

RENAMES = {"data": "売上", "it's": "Its Data", "q1": "Q1 2025"}


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("Data!A1+DATA!B2", "売上!A1+売上!B2"),
        ("SUM(Data:Other!A1)", "SUM(売上:Other!A1)"),
        ("'It''s'!A1", "'Its Data'!A1"),
        ("Q1!A1", "'Q1 2025'!A1"),
        ('"Data!A1"&Data!A1', '"Data!A1"&売上!A1'),
        ("[1]Data!A1", "[1]Data!A1"),
        ("MyData!A1+Data2!A1", "MyData!A1+Data2!A1"),
        ("Data", "Data"),
        ("'Other'!A1", "'Other'!A1"),
    ],
)
def test_rewrite_formula(formula: str, expected: str) -> None:
    assert rewrite_formula(formula, RENAMES) == expected


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("売上 2025", ""),
        ("a" * 31, ""),
        ("'quoted", "must be 1 to 31 characters and not start or end with '"),
        ("a[1]", "may not contain [ ]"),
        ("History", "'History' is reserved by Excel"),
    ],
)
def test_name_problem(name: str, problem: str) -> None:
    assert name_problem(name) == problem
