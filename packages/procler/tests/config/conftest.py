"""Fixtures of the config tests; helpers live in config_helpers (importable by name)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (its own temp dir, so HOME checks can use another one)."""
    root = tmp_path / "project"
    root.mkdir()
    return root
