"""The CLI against real container engines, each test once per engine
(procler_testkit.engine_fixtures): every container a project owns is removed after its test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.engine_fixtures import container, engine, engine_client, image
from procler_testkit.harness import Project

__all__ = ["container", "engine", "engine_client", "image"]


@pytest.fixture
def make_project(tmp_path: Path, engine_client: Any) -> Iterator[Callable[[str], Project]]:
    """Projects driven through the real CLI; every container they own is removed after."""
    made: list[Project] = []

    def factory(config: str) -> Project:
        project = Project(tmp_path / f"proj{len(made)}", config)
        made.append(project)
        return project

    yield factory
    for project in made:
        project.close()
        labels = {"label": f"procler.project={project.root}"}
        for owned in engine_client.containers.list(all=True, filters=labels):
            owned.remove(force=True)
