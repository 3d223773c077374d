"""The CLI against a real Docker engine (procler_testkit.docker_fixtures): every container a
project owns is removed after its test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.docker_fixtures import container, docker_client, image
from procler_testkit.harness import Project

__all__ = ["container", "docker_client", "image"]


@pytest.fixture
def make_project(tmp_path: Path, docker_client: Any) -> Iterator[Callable[[str], Project]]:
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
        for owned in docker_client.containers.list(all=True, filters=labels):
            owned.remove(force=True)
