"""`procler tui`: its declaration (procler.tui.run runs the screen)."""

from agentcli.commands import Arg, Command
from agentcli.errors import FileTooLargeError, NotRegularFileError
from procler.declarations.processes import SUPERVISED

TUI_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "tui",
        "a terminal UI for people: the process table, live logs with search, and the "
        "actions (start, stop, restart, ...) as keys; agents use the commands or MCP",
        "procler.tui.run:main",
        args=(
            Arg(
                "--keys",
                'key bindings file (TOML: [keys] stop = "ctrl+x"; default '
                "$XDG_CONFIG_HOME/procler/tui-keys.toml)",
                type="path",
            ),
        ),
        # its calls forward to a supervisor (or read the disk); --keys is read first
        errors=(*SUPERVISED, NotRegularFileError, FileTooLargeError),
        examples=("procler tui", "procler tui --keys my-keys.toml"),
        output={"type": "object", "description": "none: the terminal shows the UI"},
        mode="stream",
    ),
)
