"""Console entry point: parse and render only (agentcli.main does both).

`doc2md INPUT...` is shorthand for `doc2md convert INPUT...`.
"""

from __future__ import annotations

import sys

from agentcli import main as agent_main
from officecli.default_command import with_command
from officecli.doc2md.commands import APP


def expanded(argv: list[str]) -> list[str]:
    """argv with the shorthand spelled out."""
    return with_command(argv, "convert", ("convert", "capabilities"))


def main() -> None:
    agent_main.interrupt_on_sigterm()
    sys.argv[1:] = expanded(sys.argv[1:])
    agent_main.main(APP)
