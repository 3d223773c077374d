"""Console entry point: parse and render only (see agentcli.main.run)."""

from __future__ import annotations

import agentcli.main
from officecli.fieldcheck.commands import APP


def main() -> None:
    agentcli.main.interrupt_on_sigterm()
    agentcli.main.main(APP)
