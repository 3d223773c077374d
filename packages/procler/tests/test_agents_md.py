"""AGENTS.md is a short index: each tool once with its skill, the shared rules, how to
install the skills and MCP servers; every command line in it parses (the per-tool tables
and their checks moved into the skills: test_skill.py, officecli's office_tools tests)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from agentcli.testing import command_lines, parse_line
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.doc2md.commands import APP as DOC2MD
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.office_replace.commands import APP as OFFICE_REPLACE
from officecli.office_tools.commands import APP as OFFICE_TOOLS
from procler.declarations import APP as PROCLER

ROOT = Path(__file__).resolve().parents[3]
TEXT = (ROOT / "AGENTS.md").read_text("utf-8")
APPS = {a.name: a for a in (PROCLER, DOC2MD, FIELDCHECK, DESIGN_DIFF, OFFICE_REPLACE, OFFICE_TOOLS)}


def test_it_stays_short() -> None:
    assert len(TEXT.encode()) <= 4096


def test_one_row_per_skill_pointing_at_it() -> None:
    rows = re.findall(
        r"^\| `([a-z0-9-]+)` \| .+ \| `(skills/[a-z0-9-]+/SKILL\.md)` \|$", TEXT, re.M
    )
    skills = sorted(p.name for p in (ROOT / "skills").iterdir())
    assert sorted(tool for tool, _path in rows) == skills
    for tool, path in rows:
        assert path == f"skills/{tool}/SKILL.md" and (ROOT / path).is_file()


def test_every_command_line_parses() -> None:
    lines = [line for tool in APPS for line in command_lines(TEXT, tool)]
    lines += [
        line.split("#")[0].strip()
        for line in TEXT.split("```sh", 1)[1].split("```", 1)[0].splitlines()
        if line.strip()
    ]
    assert len(lines) >= 8
    for line in lines:
        if len(line.split()) == 1 or line.split()[1] == "capabilities" or "TOOL" in line:
            continue
        parse_line(APPS[shlex.split(line)[0]], line)
    claude = re.search(r"`claude mcp add [^`]* -- (office-tools [^`]+)`", TEXT)
    assert claude is not None
    parse_line(OFFICE_TOOLS, claude[1])
