"""officecli: agent-safe tools for office documents."""

__version__ = "0.1.0"
