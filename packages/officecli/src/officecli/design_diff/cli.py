"""Console entry point: parse and render only (see agentcli.main.run)."""

from __future__ import annotations

import gc

import agentcli.main
from officecli.design_diff.commands import APP


def main() -> None:
    # A run reads two workbooks and ends: its imports and its hundreds of thousands of rows
    # form no cycles worth collecting, and the collector walking them again and again was
    # about 2% of a diff of two 20,000-row workbooks. Reference counting still frees them.
    gc.disable()
    agentcli.main.main(APP)
