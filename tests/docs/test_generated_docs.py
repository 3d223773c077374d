"""docs/reference/ and docs/config.md are what the declarations and the schema table generate
(`make docs`), one reference page per tool the repository installs."""

from __future__ import annotations

import tomllib

import pytest
from generated_docs import REFERENCE, ROOT, pages, tools

from agentcli.commands import command_args
from agentcli.main import with_builtins
from agentcli.skills import errors_of

PAGES = pages()


@pytest.mark.parametrize("path", sorted(PAGES))
def test_the_committed_page_is_the_generated_one(path: str) -> None:
    committed = ROOT / path
    assert committed.is_file(), f"{path} is missing: run `make docs`"
    assert committed.read_text("utf-8") == PAGES[path], f"{path} is stale: run `make docs`"


def test_no_reference_page_is_left_of_a_tool_that_is_gone() -> None:
    committed = {str(p.relative_to(ROOT)) for p in (ROOT / REFERENCE).glob("*.md")}
    assert committed == {p for p in PAGES if p.startswith(REFERENCE)}, "run `make docs`"


def test_every_installed_command_has_its_page() -> None:
    # the console scripts of the packages, against the tools that have a page
    scripts = set()
    for pyproject in (ROOT / "packages").glob("*/pyproject.toml"):
        project = tomllib.loads(pyproject.read_text("utf-8"))["project"]
        scripts |= set(project.get("scripts", {}))
    assert scripts == {app.name for app in tools()}


def test_a_page_names_every_command_option_and_error_code() -> None:
    for app in map(with_builtins, tools()):
        page = PAGES[f"{REFERENCE}/{app.name}.md"]
        for cmd in app.commands:
            assert f"\n## {app.name} {cmd.name}\n" in page
            for arg in command_args(cmd):
                assert f"`{arg.flags[-1] if not arg.positional else arg.name.upper()}`" in page
        for code, (err, _commands) in errors_of(app).items():
            assert f"| `{code}` | {int(err.exit_code)} |" in page
