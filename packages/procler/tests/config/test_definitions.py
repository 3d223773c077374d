"""Runtime definitions: idempotent define/remove, conflicts, and the merge with the config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from procler_testkit.config_helpers import write_config

from procler.config import definitions
from procler.config.definitions import RuntimeDefinition
from procler.config.load import check_config, load_project
from procler.config.model import ContainerSpec
from procler.config.state_files import StateFileCorrupt
from procler.errors import Conflict


def test_define_is_a_no_op_for_the_identical_definition(project: Path) -> None:
    tail = RuntimeDefinition("tail -f x.log", str(project), (("A", "1"),))
    assert definitions.define(str(project), "tail", tail, set(), force=False) is True
    stored = (project / ".procler" / "state" / "definitions.json").read_text(encoding="utf-8")
    assert definitions.define(str(project), "tail", tail, set(), force=False) is False
    after = (project / ".procler" / "state" / "definitions.json").read_text(encoding="utf-8")
    assert after == stored
    assert json.loads(stored) == {
        "version": 1,
        "processes": {"tail": {"command": "tail -f x.log", "cwd": str(project), "env": {"A": "1"}}},
    }


def test_a_different_definition_conflicts_unless_forced(project: Path) -> None:
    root = str(project)
    definitions.define(root, "tail", RuntimeDefinition("tail a", root), set(), force=False)
    with pytest.raises(Conflict) as caught:
        definitions.define(root, "tail", RuntimeDefinition("tail b", root), set(), force=False)
    assert caught.value.message == "tail is already defined at runtime with a different definition"
    assert definitions.define(root, "tail", RuntimeDefinition("tail b", root), set(), force=True)
    assert definitions.read_definitions(root) == {"tail": RuntimeDefinition("tail b", root)}


def test_a_config_name_cannot_be_defined_or_removed_at_runtime(project: Path) -> None:
    root = str(project)
    with pytest.raises(Conflict) as caught:
        definitions.define(root, "web", RuntimeDefinition("x", root), {"web"}, force=True)
    assert caught.value.suggestion == "edit processes.web in the config file instead"
    with pytest.raises(Conflict):
        definitions.remove(root, "web", {"web"})
    assert not (project / ".procler" / "state").exists()


def test_remove_is_idempotent(project: Path) -> None:
    root = str(project)
    assert definitions.remove(root, "tail", set()) is False
    definitions.define(root, "tail", RuntimeDefinition("tail a", root), set(), force=False)
    assert definitions.remove(root, "tail", set()) is True
    assert definitions.remove(root, "tail", set()) is False
    assert definitions.read_definitions(root) == {}


def test_load_project_merges_runtime_definitions_after_config(project: Path) -> None:
    path = write_config(project, "processes:\n  web: {command: serve}\n")
    definitions.define(
        str(project), "tail", RuntimeDefinition("tail a", "/tmp"), set(), force=False
    )
    config = load_project(str(path))
    assert [(p.name, p.source) for p in config.processes.values()] == [
        ("web", "config"),
        ("tail", "runtime"),
    ]
    assert config.processes["tail"].cwd == "/tmp"


def test_a_runtime_definition_shadowed_by_a_new_config_process_is_an_error(project: Path) -> None:
    definitions.define(str(project), "web", RuntimeDefinition("old", "/tmp"), set(), force=False)
    path = write_config(project, "processes:\n  web: {command: serve}\n")
    _, findings = check_config(str(path), {})
    assert [(f["line"], f["path"], f["message"]) for f in findings.as_dicts()] == [
        (2, "processes.web", "web is defined both in the config and at runtime (procler define)")
    ]


def test_a_corrupt_definitions_file_is_a_finding(project: Path) -> None:
    path = write_config(project, "processes:\n  web: {command: serve}\n")
    state = project / ".procler" / "state"
    state.mkdir()
    (state / "definitions.json").write_text("{not json", encoding="utf-8")
    _, findings = check_config(str(path), {})
    errors = findings.as_dicts()
    assert [(e["file"], e["line"], e["column"]) for e in errors] == [
        (str(state / "definitions.json"), 1, 2)  # where the JSON breaks
    ]
    assert errors[0]["message"].startswith(f"cannot read {state / 'definitions.json'}: ")


def test_docker_definitions_round_trip_and_become_docker_processes(project: Path) -> None:
    root = str(project)
    owned = RuntimeDefinition(None, root, (), image="redis:7")
    inside = RuntimeDefinition("./migrate.sh", root, (), container="app")
    definitions.define(root, "cache", owned, set(), force=False)
    definitions.define(root, "migrate", inside, set(), force=False)
    stored = json.loads((project / ".procler" / "state" / "definitions.json").read_text())
    assert stored["processes"] == {
        "cache": {"command": None, "cwd": root, "env": {}, "image": "redis:7"},
        "migrate": {"command": "./migrate.sh", "cwd": root, "env": {}, "container": "app"},
    }
    assert definitions.read_definitions(root) == {"cache": owned, "migrate": inside}
    cache, migrate = owned.to_spec("cache"), inside.to_spec("migrate")
    assert (cache.context, cache.container_spec and cache.container_spec.image, cache.command) == (
        "docker",
        "redis:7",
        None,
    )
    assert (migrate.context, migrate.container_spec and migrate.container_spec.container) == (
        "docker",
        "app",
    )


def test_a_podman_definition_keeps_its_context(project: Path) -> None:
    root = str(project)
    owned = RuntimeDefinition(None, root, (), image="redis:7", context="podman")
    definitions.define(root, "cache", owned, set(), force=False)
    stored = json.loads((project / ".procler" / "state" / "definitions.json").read_text())
    assert stored["processes"] == {
        "cache": {
            "command": None,
            "cwd": root,
            "env": {},
            "image": "redis:7",
            "context": "podman",
        }
    }
    assert definitions.read_definitions(root) == {"cache": owned}
    spec = owned.to_spec("cache")
    assert (spec.context, spec.container_spec) == ("podman", ContainerSpec(image="redis:7"))
    with pytest.raises(StateFileCorrupt):  # a context that runs no container
        RuntimeDefinition.from_json({**stored["processes"]["cache"], "context": "local"})


def test_a_stored_definition_without_command_or_docker_is_corrupt(project: Path) -> None:
    with pytest.raises(StateFileCorrupt):
        RuntimeDefinition.from_json({"command": None, "cwd": str(project), "env": {}})
