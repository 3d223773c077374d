"""A value of the wrong shape is answered with the shape expected, as a line of YAML built
from the schema; every such example is itself valid; a group may be written as its list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.findings import Findings
from procler.config.keys import CONFIG
from procler.config.load import check_config
from procler.config.specs import Either, ListOf, ListOr, MapOf, Spec, Struct, flow
from procler.config.yaml_nodes import parse_yaml


def specs(spec: Spec, path: str) -> Iterator[tuple[str, Spec]]:
    """Every spec of the table, with a path naming it."""
    yield path, spec
    if isinstance(spec, Struct):
        for key, field in spec.fields.items():
            yield from specs(field, f"{path}.{key}")
    elif isinstance(spec, MapOf):
        yield from specs(spec.each, f"{path}.{spec.key_sample}")
    elif isinstance(spec, ListOf):
        yield from specs(spec.each, f"{path}[0]")
    elif isinstance(spec, Either):
        yield from specs(spec.scalar, path)
        yield from specs(spec.mapping, path)
    elif isinstance(spec, ListOr):
        yield from specs(spec.mapping, path)


def test_every_example_a_suggestion_shows_is_accepted_where_it_is_shown() -> None:
    checked = 0
    for path, spec in specs(CONFIG, "config"):
        text = f"value: {flow(spec.example())}\n"
        findings = Findings("example.yaml")
        root = parse_yaml(text, findings)
        assert root is not None and not findings.items, (path, text)
        spec.check(root.pairs[0][1], path, findings)
        assert findings.as_dicts() == [], (path, text)
        checked += 1
    assert checked > 150


def test_the_shape_expected_is_shown_as_yaml(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          db: {command: postgres}
          api:
            command: serve
            depends_on: {db: {condition: healthy}}
        groups:
          backend: db
        recipes:
          deploy: {steps: {start: api}}
        """,
    )
    assert [(e["path"], e["message"], e["suggestion"]) for e in errors_of(path)] == [
        (
            "processes.api.depends_on",
            "expected a list (each a string or a mapping), got a mapping",
            "write a list (each a string or a mapping) here, e.g. "
            "processes.api.depends_on: [{name: db, condition: healthy}]",
        ),
        (
            "groups.backend",
            "expected a list (each a string) or a mapping, got the value 'db'",
            "write a list (each a string) or a mapping here, e.g. groups.backend: [db, api] or "
            "groups.backend: {processes: [db, api]}",
        ),
        (
            "recipes.deploy.steps",
            "expected a list (each a mapping), got a mapping",
            "write a list (each a mapping) here, e.g. recipes.deploy.steps: [{start: api}]",
        ),
    ]


def test_depends_on_written_as_docker_compose_writes_it_is_shown_as_its_list(
    project: Path,
) -> None:
    """The suggestion is the user's own entries, each key an entry's name (an empty one a
    name alone); what no entry can be written from gets the schema's example."""
    path = write_config(
        project,
        """
        processes:
          postgres: {command: postgres}
          cache: {command: redis-server}
          api:
            command: serve
            depends_on:
              postgres: {condition: service_healthy, restart: true}
              cache:
          worker:
            command: work
            depends_on: {api: [started]}
        """,
    )
    assert [(e["path"], e["suggestion"]) for e in errors_of(path)] == [
        (
            "processes.api.depends_on",
            "write a list (each a string or a mapping) here, e.g. processes.api.depends_on: "
            "[{name: postgres, condition: service_healthy, restart: true}, cache]",
        ),
        (
            "processes.worker.depends_on",
            "write a list (each a string or a mapping) here, e.g. "
            "processes.worker.depends_on: [{name: db, condition: healthy}]",
        ),
    ]


def test_a_group_written_as_its_list_of_processes(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          db: {command: postgres}
          api: {command: serve}
        groups:
          backend: [db, api]
          web: {processes: [api], description: the front}
          broken: [db, nope]
        """,
    )
    config, findings = check_config(str(path), {})
    assert [(e["line"], e["column"], e["path"]) for e in findings.as_dicts()] == [
        (7, 16, "groups.broken.processes[1]")
    ]
    path.write_text(path.read_text().replace("  broken: [db, nope]\n", ""))
    config, findings = check_config(str(path), {})
    assert findings.as_dicts() == [] and config is not None
    assert {n: g.processes for n, g in config.groups.items()} == {
        "backend": ("db", "api"),
        "web": ("api",),
    }
