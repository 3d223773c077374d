"""The office tools' Agent Skills (skills/TOOL/) and Copilot prompt files (.github/prompts/):
committed as generated, within the specification's rules, and every command line in them
is one the tool's own parser takes (what test_agents_md_options.py checked of AGENTS.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentcli.main import with_builtins
from agentcli.skills import SKILL_FILE
from agentcli.testing import check_usage, command_lines, parse_line, skill_problems
from officecli.office_tools.prompts import FOLDER, PROMPTS, prompt_files
from officecli.office_tools.skills import TOOLS, skill_files

ROOT = Path(__file__).resolve().parents[4]
APPS = {app.name: app for app, _guide in TOOLS}
NAMES = sorted(APPS)


def committed(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): p.read_text("utf-8") for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("tool", NAMES)
def test_the_committed_skill_is_what_the_declarations_generate(tool: str) -> None:
    generated = skill_files()[tool]
    files = committed(ROOT / "skills" / tool)
    assert sorted(files) == sorted(generated), "run `make skills`"
    for name, text in generated.items():
        assert files[name] == text, f"skills/{tool}/{name} is stale: run `make skills`"


@pytest.mark.parametrize("tool", NAMES)
def test_the_skill_follows_the_specification(tool: str) -> None:
    assert skill_problems(ROOT / "skills" / tool) == []


@pytest.mark.parametrize("tool", NAMES)
def test_every_command_line_in_the_skill_parses(tool: str) -> None:
    text = (ROOT / "skills" / tool / SKILL_FILE).read_text("utf-8")
    lines = command_lines(text, tool)
    assert len(lines) >= 5
    for line in lines:
        if "[" in line:  # a usage synopsis of the Commands section
            check_usage(APPS[tool], line)
        else:
            parse_line(APPS[tool], line)


@pytest.mark.parametrize("tool", NAMES)
def test_every_command_has_its_usage_in_skill_md(tool: str) -> None:
    text = (ROOT / "skills" / tool / SKILL_FILE).read_text("utf-8")
    for cmd in with_builtins(APPS[tool]).commands:
        assert f"`{tool} {cmd.name}" in text, cmd.name


@pytest.mark.parametrize("tool", NAMES)
def test_skill_md_is_what_an_agent_reads_before_its_first_command(tool: str) -> None:
    """At most 8 KB (bench/agent_context.py measures the same bytes)."""
    assert len((ROOT / "skills" / tool / SKILL_FILE).read_bytes()) <= 8 * 1024


def test_the_committed_prompt_files_are_generated() -> None:
    folder = ROOT / FOLDER
    files = {p.name: p.read_text("utf-8") for p in folder.glob("*.prompt.md")}
    assert files == prompt_files(), "run `make skills`"


def test_each_prompt_in_english_and_japanese() -> None:
    names = [p.name for p in PROMPTS]
    assert names == [n for base in names[::2] for n in (base, base + "-ja")]
    assert names[::2] == [
        "summarize-documents",
        "check-data",
        "design-changes",
        "rename-everywhere",
    ]
    for prompt in PROMPTS:
        japanese = bool(re.search(r"[\u3040-\u30ff]", prompt.body))
        assert japanese == prompt.name.endswith("-ja"), prompt.name


def with_examples(text: str) -> str:
    """A prompt's `${input:NAME:EXAMPLE}` as its example (what the user would type)."""
    return re.sub(r"\$\{input:[a-z]+:([^}]*)\}", r"\1", text)


def test_every_command_line_in_the_prompts_parses_and_dry_runs_first() -> None:
    for prompt in PROMPTS:
        text = with_examples(prompt.render())
        lines = [line for tool in APPS for line in command_lines(text, tool)]
        assert lines, prompt.name
        for line in lines:
            parse_line(APPS[line.split()[0]], line)
        writes = [
            i for i, line in enumerate(lines) if line.split()[0] in ("doc2md", "office-replace")
        ]
        if writes:  # the first command that could write is its dry run
            assert "--dry-run" in lines[writes[0]], prompt.name


def test_copilot_instructions_point_at_the_skills() -> None:
    text = (ROOT / ".github" / "copilot-instructions.md").read_text("utf-8")
    for tool in ["procler", *NAMES]:
        assert f"skills/{tool}/SKILL.md" in text
    for path in re.findall(r"`((?:skills|\.github)/[^`]+)`", text):
        assert (ROOT / path).exists(), path
