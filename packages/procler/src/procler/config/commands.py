"""Declarations of the configuration commands (config init/validate/explain/show, define, remove, list)."""

from __future__ import annotations

from agentcli.commands import Command

CONFIG_COMMANDS: tuple[Command, ...] = ()
