"""`office-tools skills install`: the four skills where Copilot, Claude Code and Codex look,
the prompt files with --prompts, the same answer twice, and no changed file overwritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentcli.testing import skill_problems
from officecli.office_tools.prompts import prompt_files
from officecli.office_tools.skills import skill_files

TOOL = str(Path(sys.executable).parent / "office-tools")
FOLDERS = {"copilot": ".github/skills", "claude": ".claude/skills", "codex": ".agents/skills"}
SKILLS = skill_files()


def office_tools(cwd: Path, *args: str, home: Path | None = None) -> tuple[int, dict[str, Any]]:
    env = dict(os.environ, HOME=str(home)) if home else None
    done = subprocess.run(
        [TOOL, *args], cwd=cwd, capture_output=True, text=True, timeout=60, env=env
    )
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("target", sorted(FOLDERS))
def test_the_skills_install_for_each_agent(tmp_path: Path, target: str) -> None:
    code, answer = office_tools(tmp_path, "skills", "install", "--target", target)
    assert code == 0, answer
    count = sum(len(files) for files in SKILLS.values())
    assert answer["data"]["summary"] == {"created": count}
    for name, files in SKILLS.items():
        folder = tmp_path / FOLDERS[target] / name
        assert skill_problems(folder) == []
        for path, text in files.items():
            assert (folder / path).read_text("utf-8") == text
    code, answer = office_tools(tmp_path, "skills", "install", "--target", target)
    assert (code, answer["data"]["summary"]) == (0, {"unchanged": count})


def test_prompt_files_go_into_the_project(tmp_path: Path) -> None:
    code, answer = office_tools(tmp_path, "skills", "install", "--prompts")
    assert code == 0, answer
    prompts = tmp_path / ".github" / "prompts"
    assert {p.name: p.read_text("utf-8") for p in prompts.glob("*.prompt.md")} == prompt_files()
    assert sorted(FOLDERS.values()) == sorted(
        str(p.relative_to(tmp_path).parent) for p in tmp_path.glob("*/skills/doc2md")
    )
    mine = prompts / "check-data.prompt.md"
    mine.write_text("my prompt\n")
    code, answer = office_tools(tmp_path, "skills", "install", "--prompts")
    assert (code, answer["error_code"]) == (2, "FILE_CHANGED")
    assert answer["data"]["files"] == [".github/prompts/check-data.prompt.md"]
    assert mine.read_text() == "my prompt\n"


@pytest.mark.parametrize(
    "args",
    [("--prompts", "--user"), ("--prompts", "--target", "claude"), ("--user", "--project", ".")],
)
def test_refused_combinations_write_nothing(tmp_path: Path, args: tuple[str, ...]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    code, answer = office_tools(tmp_path, "skills", "install", *args, home=home)
    assert (code, answer["error_code"]) == (2, "USAGE")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"] and not any(home.iterdir())


def test_user_scope(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    code, answer = office_tools(tmp_path, "skills", "install", "--user", home=home)
    assert code == 0, answer
    for folder in (".copilot/skills", ".claude/skills", ".agents/skills"):
        assert sorted(p.name for p in (home / folder).iterdir()) == sorted(SKILLS)
