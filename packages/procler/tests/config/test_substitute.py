from __future__ import annotations

import pytest

from procler.config.dotenv import DotenvError, is_plain, parse_dotenv
from procler.config.substitute import SubstitutionError, chain_lookup, substitute

LOOKUP = chain_lookup({"A": "1", "EMPTY": ""}, {"B": "2", "A": "shadowed"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${A}-${B}", "1-2"),
        ("${MISSING:-fallback}", "fallback"),
        ("${A:-fallback}", "1"),
        ("${EMPTY:-fallback}", ""),
        ("$${A} stays", "${A} stays"),
        ("$A and $$ are the shell's", "$A and $$ are the shell's"),
        ("no references", "no references"),
    ],
)
def test_substitute(text: str, expected: str) -> None:
    assert substitute(text, LOOKUP) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("${NOPE}", "undefined variable 'NOPE'"),
        ("${A", "unterminated '${' in '${A'"),
        ("${1A}", "invalid variable reference ${1A}"),
    ],
)
def test_substitute_errors(text: str, message: str) -> None:
    with pytest.raises(SubstitutionError) as caught:
        substitute(text, LOOKUP)
    assert caught.value.message == message


def test_dotenv() -> None:
    text = "# c\n\nexport A=1\nB = two words # note\nC='x # y'\nD=\"l1\\nl2\"\nE=\n"
    assert parse_dotenv(text) == [
        ("A", "1"),
        ("B", "two words"),
        ("C", "x # y"),
        ("D", "l1\nl2"),
        ("E", ""),
    ]


def test_dotenv_bad_line() -> None:
    with pytest.raises(DotenvError) as caught:
        parse_dotenv("A=1\nnot a pair\n")
    assert str(caught.value) == "line 2 is not KEY=VALUE"  # the line itself may be a secret


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("# c\n\nA=1\nB = two words\nC='x # y'\nD=\"q v\"\nE=\nURL=http://h/#frag\n", True),
        ("export A=1\n", False),
        ("B=two words # note\n", False),
        ('D="l1\\nl2"\n', False),
        ("P=a\\b\n", False),
        ('Q="x" # c\n', False),
    ],
)
def test_dotenv_plain_is_read_alike_by_every_reader(text: str, plain: bool) -> None:
    assert is_plain(text) is plain
