"""AGENTS.md and README follow the declarations: every option an `office-replace` snippet of
AGENTS.md uses is declared, and README's office-replace section names every rules-file
column and value."""

from __future__ import annotations

import re
from pathlib import Path

from agentcli.commands import command_args
from agentcli.parser import GLOBAL_ARGS
from officecli.office_replace.columns import RULES_FILE
from officecli.office_replace.commands import APP

ROOT = Path(__file__).resolve().parents[4]


def test_agents_md_uses_only_declared_options() -> None:
    flags = {f for a in (*command_args(APP.command("replace")), *GLOBAL_ARGS) for f in a.flags}
    snippets = [
        s
        for s in re.findall(r"`([^`]+)`", (ROOT / "AGENTS.md").read_text())
        if s.startswith("office-replace ")
    ]
    assert len(snippets) >= 6
    for snippet in snippets:
        for word in snippet.split()[1:]:
            if word.startswith("-"):
                assert word in flags, snippet


def test_readme_names_every_column_and_value() -> None:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## office-replace") : text.index("## Development")]
    for field in RULES_FILE.fields:
        assert f"`{field.name}`" in section
        for value, _ in field.values:
            assert f"`{value}`" in section, value
