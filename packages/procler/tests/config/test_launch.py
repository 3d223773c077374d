"""How a `command:` string is launched: directly, through `sh -c 'exec ...'`, or in a shell
that stays (and is then reported with `shell: true`)."""

from __future__ import annotations

import pytest

from procler.config.launch import Launch, plan

SH = "/bin/sh"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python -m http.server 8000", Launch(("python", "-m", "http.server", "8000"), False)),
        ('prog "a b" c', Launch(("prog", "a b", "c"), False)),
        ("echo $HOME", Launch((SH, "-c", "exec echo $HOME"), False)),
        ("prog > out.log 2>&1", Launch((SH, "-c", "exec prog > out.log 2>&1"), False)),
        ("prog 'a|b'", Launch((SH, "-c", "exec prog 'a|b'"), False)),
        ("FOO=1 prog x", Launch((SH, "-c", "FOO=1 exec prog x"), False)),
        ("exec prog", Launch((SH, "-c", "exec prog"), False)),
        ("a | b", Launch((SH, "-c", "a | b"), True)),
        ("a||b", Launch((SH, "-c", "a||b"), True)),
        ("cd /tmp && prog", Launch((SH, "-c", "cd /tmp && prog"), True)),
        ("prog &", Launch((SH, "-c", "prog &"), True)),
        ("sleep 1; sleep 2", Launch((SH, "-c", "sleep 1; sleep 2"), True)),
        ("(prog)", Launch((SH, "-c", "(prog)"), True)),
        ("prog $(date)", Launch((SH, "-c", "prog $(date)"), True)),
        ("ulimit -n 10", Launch((SH, "-c", "ulimit -n 10"), True)),
        ("FOO=$X prog", Launch((SH, "-c", "FOO=$X prog"), True)),
        ("x=1", Launch((SH, "-c", "x=1"), True)),
        ("prog\nother", Launch((SH, "-c", "prog\nother"), True)),
        ('prog "unterminated', Launch((SH, "-c", 'prog "unterminated'), True)),
    ],
)
def test_plan(command: str, expected: Launch) -> None:
    assert plan(command) == expected
