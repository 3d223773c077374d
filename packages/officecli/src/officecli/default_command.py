"""`tool INPUT...` as shorthand for `tool <command> INPUT...` for single-command tools: the
shared parser wants a command word, so one is put in front when none is named."""

from __future__ import annotations

LEADING_FLAGS = ("--debug", "--verbose", "-v", "--quiet", "-q")


def with_command(argv: list[str], default: str, words: tuple[str, ...]) -> list[str]:
    """argv with `default` inserted after any leading global flags, unless a command is named."""
    i = 0
    while i < len(argv) and argv[i] in LEADING_FLAGS:
        i += 1
    rest = argv[i:]
    if not rest or rest[0] in words or rest in (["--help"], ["-h"], ["--version"]):
        return argv
    return [*argv[:i], default, *rest]
