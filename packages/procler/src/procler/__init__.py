"""Procler: a per-project process supervisor for development stacks."""

__version__ = "0.1.0"
