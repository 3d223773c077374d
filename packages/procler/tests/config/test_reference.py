"""`procler config schema` and docs/config.md are generated from the schema table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from procler_testkit.config_helpers import BASE, run_procler
from ruamel.yaml import YAML

from procler.config.reference import json_schema, markdown

DOCS = Path(__file__).parents[4] / "docs" / "config.md"


def as_json(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def test_docs_config_md_is_generated_from_the_schema() -> None:
    assert DOCS.read_text(encoding="utf-8") == markdown(json_schema()), "run `make docs`"


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
