"""Console entry point: parse and render only (see agentcli.main.run)."""

from __future__ import annotations

from agentcli.main import main as run_main
from procler.commands import APP


def main() -> None:
    run_main(APP)
