"""Every command AGENTS.md names exists in its tool's capabilities (so the table cannot drift)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from agentcli.commands import capabilities
from agentcli.main import with_builtins

ROOT = Path(__file__).resolve().parents[3]
TOOLS = {
    "procler": "procler.declarations",
    "doc2md": "officecli.doc2md.commands",
    "fieldcheck": "officecli.fieldcheck.commands",
    "design-diff": "officecli.design_diff.commands",
}


def named_commands() -> list[tuple[str, str]]:
    """(tool, command words) for every `tool command ...` in backticks in AGENTS.md."""
    text = (ROOT / "AGENTS.md").read_text()
    found = []
    for snippet in re.findall(r"`([^`]+)`", text):
        words = snippet.split()
        if words and words[0] in TOOLS:
            found.append(
                (words[0], " ".join(w for w in words[1:] if re.fullmatch(r"[a-z][a-z0-9-]*", w)))
            )
    return found


def test_every_named_command_exists() -> None:
    named = named_commands()
    assert len(named) >= 30
    for tool, words in named:
        app = with_builtins(importlib.import_module(TOOLS[tool]).APP)
        declared = {c["name"] for c in capabilities(app)["commands"]}
        # The longest declared command that the snippet's words start with.
        match = [c for c in declared if (words + " ").startswith(c + " ")]
        first_word_is_option = words == ""
        assert match or first_word_is_option, (
            f"AGENTS.md names `{tool} {words}`, not in capabilities"
        )


@pytest.mark.parametrize("tool", ["procler", "design-diff", "fieldcheck"])
def test_every_command_is_in_agents_md(tool: str) -> None:
    named = {words for name, words in named_commands() if name == tool}
    app = with_builtins(importlib.import_module(TOOLS[tool]).APP)
    for cmd in app.commands:
        assert any((w + " ").startswith(cmd.name + " ") for w in named), f"{cmd.name} missing"
