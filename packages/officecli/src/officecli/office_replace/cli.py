"""Console entry point: parse and render only (agentcli.main does both).

`office-replace INPUT...` is shorthand for `office-replace replace INPUT...`, and
`office-replace --help` for `office-replace replace --help` (the rules file's columns).
"""

from __future__ import annotations

import sys

from agentcli import main as agent_main
from officecli.default_command import with_command
from officecli.office_replace.commands import APP


def expanded(argv: list[str]) -> list[str]:
    """argv with the shorthands spelled out."""
    if argv in (["--help"], ["-h"]):
        return ["replace", *argv]
    return with_command(argv, "replace", ("replace", "capabilities"))


def main() -> None:
    agent_main.interrupt_on_sigterm()
    sys.argv[1:] = expanded(sys.argv[1:])
    agent_main.main(APP)
