"""Conventions shared by every agent-first command-line tool in this workspace."""

__version__ = "0.1.0"
