"""Every design-diff option AGENTS.md names is one its command declares (so the guide
cannot drift from the declarations that feed --help and capabilities)."""

from __future__ import annotations

import re
from pathlib import Path

from agentcli.commands import command_args
from officecli.design_diff.commands import APP

ROOT = Path(__file__).resolve().parents[4]


def test_every_design_diff_option_in_agents_md_is_declared() -> None:
    text = (ROOT / "AGENTS.md").read_text("utf-8")
    snippets = [s for s in re.findall(r"`([^`]+)`", text) if s.startswith("design-diff ")]
    assert len(snippets) >= 6
    for snippet in snippets:
        words = snippet.split()
        names = {c.name for c in APP.commands}
        if len(words) < 2 or words[1] not in names:
            continue  # built-ins (capabilities) take no options here
        command = APP.command(words[1])
        declared = {flag for arg in command_args(command) for flag in arg.flags}
        used = set(re.findall(r"(?<![\w-])--?[a-z][a-z0-9-]*", snippet))
        assert used <= declared, (snippet, used - declared)
