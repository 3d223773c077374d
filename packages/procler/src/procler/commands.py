"""Procler's command declarations: the single source for the CLI, capabilities and the API."""

from __future__ import annotations

from agentcli.commands import App, Arg
from procler import __version__
from procler.config.commands import CONFIG_COMMANDS

GLOBAL_ARGS = (
    Arg(
        "--config",
        "config file (default: .procler/config.yaml found walking up; or $PROCLER_CONFIG)",
        type="path",
    ),
)

COMMANDS = CONFIG_COMMANDS

APP = App(
    name="procler",
    version=__version__,
    description="Supervise a project's development processes; every command answers JSON.",
    commands=COMMANDS,
    global_args=GLOBAL_ARGS,
)
