"""`procler config schema` and docs/config.md are generated from the schema table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from procler_testkit.config_helpers import BASE, run_procler
from ruamel.yaml import YAML

from procler.config.keys import CONFIG
from procler.config.reference import json_schema, markdown
from procler.config.specs import Either, ListOf, ListOr, MapOf, Spec, Struct

DOCS = Path(__file__).parents[4] / "docs" / "config.md"


def as_json(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def test_docs_config_md_is_generated_from_the_schema() -> None:
    assert DOCS.read_text(encoding="utf-8") == markdown(json_schema()), "run `make docs`"


def structs(spec: Spec, path: str = "") -> list[tuple[str, Struct]]:
    """Every mapping with known keys in the schema table, with where it is."""
    if isinstance(spec, Struct):
        found = [(path, spec)]
        for key, field in spec.fields.items():
            found += structs(field, f"{path}.{key}" if path else key)
        return found
    if isinstance(spec, MapOf):
        return structs(spec.each, path + ".NAME")
    if isinstance(spec, ListOf):
        return structs(spec.each, path + "[]")
    if isinstance(spec, Either | ListOr):
        return structs(spec.mapping, path)
    return []


def test_every_key_of_the_table_says_what_it_means() -> None:
    undescribed = [
        f"{path}.{key}" if path else key
        for path, struct in structs(CONFIG)
        for key in struct.fields
        if key not in struct.about
    ]
    assert undescribed == [], "describe them in the Struct's `about`"
    described_nothing = [
        (path, sorted(set(struct.about) - set(struct.fields)))
        for path, struct in structs(CONFIG)
        if set(struct.about) - set(struct.fields)
    ]
    assert described_nothing == []


def test_every_key_has_its_meaning_and_an_example_in_docs_config_md() -> None:
    rows = [line for line in markdown(json_schema()).splitlines() if line.startswith("| `")]
    for row in rows:
        key, _value, _default, meaning, example = re.split(r"(?<!\\)\|", row)[1:-1]
        if key.strip().endswith(("[]`", ".NAME`", ".KEY`")):
            continue  # an entry of a list or a mapping: its keys have the rows
        assert meaning.strip() and example.strip(), row


def test_a_default_in_the_reference_is_a_value_the_schema_accepts() -> None:
    # each key's declared default, alone in its mapping, is valid where it stands
    schema = json_schema()
    checked = 0
    for path, struct in structs(CONFIG):
        for key, about in struct.about.items():
            if isinstance(about, tuple):
                sub = Draft202012Validator(json_schema_of(schema, path, key))
                assert list(sub.iter_errors(about[1])) == [], (path, key)
                checked += 1
    assert checked > 40


def json_schema_of(schema: dict[str, Any], path: str, key: str) -> dict[str, Any]:
    """The schema of `key` in the mapping at `path` (walking NAME and [] entries)."""
    node = schema
    for part in [p for p in path.replace("[]", ".[]").split(".") if p]:
        node = _mapping(node)
        if part == "[]":
            node = _mapping(node["items"]) if "items" in node else node
        elif part == "NAME":
            node = node["additionalProperties"]
        else:
            node = node["properties"][part]
    return {"$defs": {}, **_mapping(node)["properties"][key]}


def _mapping(node: dict[str, Any]) -> dict[str, Any]:
    """The branch of an anyOf (a value or a mapping) that is the mapping, or a list."""
    for branch in node.get("anyOf", []):
        if "properties" in branch or branch.get("type") == "array":
            found: dict[str, Any] = branch
            return found
    return node


def test_config_schema_prints_the_json_schema(project: Path) -> None:
    code, env = run_procler(project, "config", "schema")
    assert (code, env["data"]) == (0, json_schema())
    Draft202012Validator.check_schema(env["data"])


def test_the_schema_accepts_a_full_config() -> None:
    validator = Draft202012Validator(json_schema())
    assert list(validator.iter_errors(as_json(BASE))) == []
    with_sig = BASE.replace("stop_signal: INT", "stop_signal: SIGINT")
    assert list(validator.iter_errors(as_json(with_sig))) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "processes: {web: {comand: x}}",
            "Additional properties are not allowed ('comand' was unexpected)",
        ),
        (
            "processes: {web: {command: x, ports: [70000]}}",
            "70000 is greater than the maximum of 65535",
        ),
        ("processes: {web: {command: x, args: [x]}}", "should not be valid under"),
        ("processes: {'-web': {command: x}}", "'-web' does not match"),
        ("processes: {web: {command: x, docker: {image: 'BAD::x'}}}", "'BAD::x' does not match"),
        ("logs: {max_size: 10 parsecs}", "'10 parsecs' does not match"),
    ],
)
def test_the_schema_refuses_what_the_loader_refuses(text: str, message: str) -> None:
    errors = [e.message for e in Draft202012Validator(json_schema()).iter_errors(as_json(text))]
    assert message in errors[0], errors
