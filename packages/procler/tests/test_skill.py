"""Procler's Agent Skill (skills/procler/): generated from the declarations, committed as
generated, within the specification's rules, and every command line in it is one the
parser takes (what tests/test_agents_md.py checked of AGENTS.md before the skill took
its table)."""

from __future__ import annotations

import re
from pathlib import Path

from agentcli.main import with_builtins
from agentcli.skills import SKILL_FILE, TASKS_FILE
from agentcli.testing import command_lines, parse_line, skill_problems
from procler.cli.skill import GUIDE, skill_files
from procler.declarations import APP

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "skills" / "procler"


def test_the_committed_skill_is_what_the_declarations_generate() -> None:
    generated = skill_files()["procler"]
    committed = {
        str(p.relative_to(FOLDER)): p.read_text("utf-8") for p in FOLDER.rglob("*") if p.is_file()
    }
    assert sorted(committed) == sorted(generated), "run `make skills`"
    for name, text in generated.items():
        assert committed[name] == text, f"skills/procler/{name} is stale: run `make skills`"


def test_the_skill_follows_the_specification() -> None:
    assert skill_problems(FOLDER) == []


def test_every_command_line_in_the_skill_parses() -> None:
    text = (FOLDER / SKILL_FILE).read_text("utf-8") + (FOLDER / TASKS_FILE).read_text("utf-8")
    lines = command_lines(text, "procler")
    assert len(lines) >= 60
    for line in lines:
        if line != "procler COMMAND --help":
            parse_line(APP, line)


def test_every_guide_line_is_a_whole_command() -> None:
    for task in GUIDE.tasks + GUIDE.more_tasks:
        for line in task.commands:
            parse_line(APP, line)
    for flow in GUIDE.workflows:
        for line in flow.steps:
            parse_line(APP, line)


def test_every_command_is_named_in_skill_md() -> None:
    """Its Commands section names every command (a family on one line: `recipe` run, ...)."""
    index = (FOLDER / SKILL_FILE).read_text("utf-8").split("## Commands", 1)[1].split("## ")[0]
    named: set[str] = set()
    for line in index.splitlines():
        family = re.fullmatch(r"- `([a-z-]+)` ([a-z0-9, -]+)", line)
        if family:
            named |= {f"{family[1]} {word}" for word in family[2].split(", ")}
        elif line.startswith("- "):
            named |= set(re.findall(r"`([a-z-]+)`", line))
    assert named == {c.name for c in with_builtins(APP).commands} - {"capabilities"}


def test_skill_md_is_what_an_agent_reads_before_its_first_command() -> None:
    """At most 8 KB (bench/agent_context.py measures the same bytes)."""
    assert len((FOLDER / SKILL_FILE).read_bytes()) <= 8 * 1024
