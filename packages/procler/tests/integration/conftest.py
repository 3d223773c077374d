from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import Project


@pytest.fixture
def make_project(tmp_path: Path) -> Iterator[Callable[[str], Project]]:
    made: list[Project] = []

    def factory(config: str, under: str = "") -> Project:
        """A project in tmp_path, or in its folder `under` (a deep path, say)."""
        project = Project(tmp_path / under / f"proj{len(made)}", config)
        made.append(project)
        return project

    yield factory
    for project in made:
        project.close()


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[str]]:
    """A tmux server of this test's own: the command line to reach it (a real terminal)."""
    if shutil.which("tmux") is None:
        if os.environ.get("PROCLER_REQUIRE_TMUX"):
            pytest.fail("PROCLER_REQUIRE_TMUX is set but tmux is not installed")
        pytest.skip("tmux is not installed (.ci/people-deps.sh installs it)")
    base = ["tmux", "-S", str(tmp_path / "tmux.sock")]
    yield base
    subprocess.run([*base, "kill-server"], capture_output=True, timeout=10)
