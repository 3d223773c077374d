"""Tests of the repository itself: README, Makefile, the set-up and the bench tooling."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A network test downloads from PyPI (a cold cache on purpose): CI runs it, a developer
    # asks for it with AGENT_TOOLS_NETWORK_TESTS=1.
    if os.environ.get("AGENT_TOOLS_NETWORK_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="needs PyPI: set AGENT_TOOLS_NETWORK_TESTS=1 (CI does)")
    for item in items:
        if item.get_closest_marker("network"):
            item.add_marker(skip)
