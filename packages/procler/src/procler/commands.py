"""Procler's command declarations: the single source for the CLI, capabilities and the API."""

from __future__ import annotations

from agentcli.commands import App
from procler import __version__

COMMANDS = ()

APP = App(
    name="procler",
    version=__version__,
    description="Supervise a project's development processes; every command answers JSON.",
    commands=COMMANDS,
)
