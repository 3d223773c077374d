"""Everything that runs in the CLI process, one module per command family (config,
processes, recipes, snippets, schedules, logs, history, events, daemon, stack_files, mcp, tui: each
holds its declarations and the handlers that run here),
and `client`, which sends supervisor commands over the socket (starting a supervisor).

APP assembles the declarations: the single source for the parser, capabilities and the
supervisor's routes. procler.entry comes first and runs `main` when no supervisor answers.
"""

from agentcli.commands import App, Arg
from procler import __version__
from procler.cli.config import CONFIG_COMMANDS
from procler.cli.daemon import DAEMON_COMMANDS
from procler.cli.events import EVENTS_COMMANDS
from procler.cli.history import HISTORY_COMMANDS
from procler.cli.logs import LOGS_COMMANDS
from procler.cli.mcp import MCP_COMMANDS
from procler.cli.processes import PROCESS_COMMANDS
from procler.cli.recipes import RECIPE_COMMANDS
from procler.cli.replica_commands import REPLICA_COMMANDS
from procler.cli.schedules import SCHEDULE_COMMANDS
from procler.cli.snippets import SNIPPET_COMMANDS
from procler.cli.stack_files import STACK_FILE_COMMANDS
from procler.cli.tui import TUI_COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

GLOBAL_ARGS = (
    Arg(
        "--config",
        "config file (default: .procler/config.yaml found walking up; or $PROCLER_CONFIG)",
        type="path",
    ),
)
COMMANDS = (
    CONFIG_COMMANDS
    + PROCESS_COMMANDS
    + REPLICA_COMMANDS
    + RECIPE_COMMANDS
    + SNIPPET_COMMANDS
    + SCHEDULE_COMMANDS
    + LOGS_COMMANDS
    + HISTORY_COMMANDS
    + EVENTS_COMMANDS
    + DAEMON_COMMANDS
    + STACK_FILE_COMMANDS
    + MCP_COMMANDS
    + TUI_COMMANDS
)

APP = App(
    name="procler",
    version=__version__,
    description="Supervise a project's development processes; every command answers JSON.",
    commands=COMMANDS,
    global_args=GLOBAL_ARGS,
    terms="procler.recipe_states:GLOSSARY",  # with states' ready: imported when asked
)


def main() -> "NoReturn":
    """The full CLI: parse and render only (see agentcli.main.run); procler.entry comes first."""
    from agentcli.main import main as run_main

    run_main(APP)
