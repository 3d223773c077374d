"""Every Procler command's declaration, one module per family (config, processes,
replica_commands, recipes, snippets, schedules, logs, history, events, daemon, stack_files,
mcp, skills, tui): arguments, errors, output schema, and where it runs (its handler: the CLI's
forward to the supervisor, or a handler of procler.cli that runs where it is asked).

APP assembles them: the single source for the parser, capabilities, help, the supervisor's
routes, REST, OpenAPI and MCP. Both the CLI and the supervisor import this package; it
imports neither (handlers are named by string, resolved only where they run).
"""

from agentcli.commands import App, Arg
from procler import __version__
from procler.declarations.config import CONFIG_COMMANDS
from procler.declarations.daemon import DAEMON_COMMANDS
from procler.declarations.events import EVENTS_COMMANDS
from procler.declarations.history import HISTORY_COMMANDS
from procler.declarations.logs import LOGS_COMMANDS
from procler.declarations.mcp import MCP_COMMANDS
from procler.declarations.processes import PROCESS_COMMANDS
from procler.declarations.recipes import RECIPE_COMMANDS
from procler.declarations.replica_commands import REPLICA_COMMANDS
from procler.declarations.schedules import SCHEDULE_COMMANDS
from procler.declarations.skills import SKILLS_COMMANDS
from procler.declarations.snippets import SNIPPET_COMMANDS
from procler.declarations.stack_files import STACK_FILE_COMMANDS
from procler.declarations.tui import TUI_COMMANDS

GLOBAL_ARGS = (
    Arg(
        "--config",
        "config file; given again, each file is merged over the ones before it (mappings "
        "merge, scalars and lists replace); default: $PROCLER_CONFIG (files separated by "
        "':'), else .procler/config.yaml found walking up; .procler/config.local.yaml is "
        "merged last when it exists",
        type="path",
        multiple=True,
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
    + SKILLS_COMMANDS
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
