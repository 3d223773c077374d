"""Console entry point: parse and render only (agentcli.main does both).

`doc2md INPUT...` is shorthand for `doc2md convert INPUT...`: the shared parser wants a
command word, so one is put in front when the first word is not a command.
"""

from __future__ import annotations

import sys

from agentcli import main as agent_main
from officecli.doc2md.commands import APP

COMMAND_WORDS = ("convert", "capabilities")
LEADING_FLAGS = ("--debug", "--verbose", "-v", "--quiet", "-q")


def with_command(argv: list[str]) -> list[str]:
    """argv with `convert` inserted after any leading global flags, unless a command is named."""
    i = 0
    while i < len(argv) and argv[i] in LEADING_FLAGS:
        i += 1
    rest = argv[i:]
    if not rest or rest[0] in COMMAND_WORDS or rest in (["--help"], ["-h"], ["--version"]):
        return argv
    return [*argv[:i], "convert", *rest]


def main() -> None:
    agent_main.interrupt_on_sigterm()
    sys.argv[1:] = with_command(sys.argv[1:])
    agent_main.main(APP)
