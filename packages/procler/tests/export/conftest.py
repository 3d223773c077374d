"""Fixtures of the export tests (helpers: procler_testkit.export_helpers, config_helpers)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    root.mkdir()
    return root
