"""Fixtures of the config tests (their helpers: procler_testkit.config_helpers)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (its own temp dir, so HOME checks can use another one)."""
    root = tmp_path / "project"
    root.mkdir()
    return root
