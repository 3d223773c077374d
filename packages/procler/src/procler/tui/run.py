"""Handler of `procler tui` (and the TUI of `procler up --tui`): run the app until the
person quits."""

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

    config = find_config(os.getcwd(), values.get("config"))  # no config: CONFIG_NOT_FOUND, exit 2
    need_terminal("procler tui")
    return show(config, load_keymap(values.get("keys")))


def need_terminal(what: str) -> None:
    """USAGE unless stdin and stdout are a terminal."""
    import sys

    from agentcli.errors import UsageError

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            f"{what} needs a terminal (stdin and stdout)",
            suggestion="run it in a terminal; a program uses the commands or `procler mcp`",
        )


def show(config: str, keymap: "dict[str, str]") -> "Stream":
    """The TUI on this project until the person quits."""
    ProclerApp(Client(config), keymap).run()
    return Stream(iter(()))  # the screen said everything: no envelope after it
