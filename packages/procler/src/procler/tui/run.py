"""Handler of `procler tui`: run the app until the person quits."""

from agentcli.commands import Stream
from procler.project import find_config
from procler.tui.app import ProclerApp
from procler.tui.client import Client
from procler.tui.key_bindings import load_keymap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agentcli.commands import Command


def main(values: "dict[str, Any]", command: "Command") -> "Stream":
    import os
    import sys

    from agentcli.errors import UsageError

    config = find_config(os.getcwd(), values.get("config"))  # no config: CONFIG_NOT_FOUND, exit 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            "procler tui needs a terminal (stdin and stdout)",
            suggestion="run it in a terminal; a program uses the commands or `procler mcp`",
        )
    ProclerApp(Client(config), load_keymap(values.get("keys"))).run()
    return Stream(iter(()))  # the screen said everything: no envelope after it
