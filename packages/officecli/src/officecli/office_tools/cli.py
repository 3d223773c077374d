"""Console entry point: parse and render only (see agentcli.main.run)."""

from __future__ import annotations

import agentcli.main
from officecli.office_tools.commands import APP


def main() -> None:
    agentcli.main.main(APP)
