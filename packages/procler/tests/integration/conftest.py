from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import Project


@pytest.fixture
def make_project(tmp_path: Path) -> Iterator[Callable[[str], Project]]:
    made: list[Project] = []

    def factory(config: str) -> Project:
        project = Project(tmp_path / f"proj{len(made)}", config)
        made.append(project)
        return project

    yield factory
    for project in made:
        project.close()
