"""Procler 0.3's docker forms against the real Docker engine (0.3 knew no other): `container:`
at the process level, and `procler exec --container` without a context."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from procler_testkit.engine_helpers import commands_in, unique
from procler_testkit.harness import Project

from procler.contexts import registry

pytestmark = [
    pytest.mark.docker,
    pytest.mark.parametrize("engine", [registry.CONTAINER_DEFAULT], indirect=True),
]


def test_process_level_container_runs_the_command_by_docker_exec(
    make_project: Callable[[str], Project], container: Callable[..., Any], engine_client: Any
) -> None:
    name = unique()
    container(name)
    project = make_project(
        f"""
version: 1
vars: {{DB_CONTAINER: {name}}}
processes:
  migrate:
    command: sleep 300
    context: docker
    container: ${{DB_CONTAINER}}
"""
    )
    started = project.ok("start", "migrate")
    assert (started["status"], started["context"]) == ("running", "docker")
    assert "sleep 300" in commands_in(engine_client, name)
    project.ok("stop", "migrate")
    assert "sleep 300" not in commands_in(engine_client, name)


def test_exec_in_a_container_answers_its_output(
    make_project: Callable[[str], Project], container: Callable[..., Any]
) -> None:
    name = unique()
    container(name)
    project = make_project("version: 1\nprocesses:\n  idle: {command: 'true'}\n")
    code, answer = project.run("exec", "echo inside; echo oops >&2; exit 3", "--container", name)
    assert (code, answer["error_code"]) == (1, "COMMAND_FAILED")
    data = answer["data"]
    assert (data["context"], data["exit_code"], data["stdout"], data["stderr"]) == (
        "docker",
        3,
        "inside\n",
        "oops\n",
    )
    code, answer = project.run("exec", "echo fine", "--container", name)
    assert (code, answer["data"]["stdout"]) == (0, "fine\n")
