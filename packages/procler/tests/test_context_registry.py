"""The execution contexts are a table (procler.contexts.registry.CONTEXTS): every fact of a
context comes from its declaration, and nothing outside procler/contexts names one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from procler.config.keys import PROCESS
from procler.config.specs import Enum
from procler.contexts import registry
from procler.contexts.container_kind import ContainerKind
from procler.declarations import APP

SRC = Path(__file__).parents[1] / "src" / "procler"
DOCS = Path(__file__).parents[3] / "docs"


def test_only_the_contexts_package_names_a_container_context() -> None:
    names = "|".join(registry.in_containers())
    named = re.compile(rf"""["'](?:{names})["']""")
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if "contexts" not in path.relative_to(SRC).parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if named.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("name", list(registry.CONTEXTS))
def test_each_context_is_declared_once_and_asked_everywhere(name: str) -> None:
    kind = registry.kind(name)
    assert kind.name == name
    context = PROCESS.fields["context"]
    assert isinstance(context, Enum) and name in context.choices
    assert kind.status_about in APP.command("status").output["anyOf"][0]["description"]
    for error in kind.errors:
        assert error.code in {e.code for e in APP.command("start").errors}
    if isinstance(kind, ContainerKind):
        assert PROCESS.fields[name] is kind.settings()
        assert f"`context: {name}`" in (DOCS / "procler" / "config.md").read_text()
        assert kind.unavailable is not None and kind.unavailable in kind.errors
    else:
        assert name not in PROCESS.fields
