"""`procler skills install` and `procler config init --skills` with the real console script:
the skill lands where each agent looks, a second run changes nothing, a file the user
changed is never overwritten without --force, and the answer says what was written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentcli.testing import skill_problems
from procler.cli.skill import skill_files

PROCLER = str(Path(sys.executable).parent / "procler")
FOLDERS = {"copilot": ".github/skills", "claude": ".claude/skills", "codex": ".agents/skills"}
HOME_FOLDERS = {"copilot": ".copilot/skills", "claude": ".claude/skills", "codex": ".agents/skills"}
FILES = sorted(skill_files()["procler"])


def procler(cwd: Path, *args: str, home: Path | None = None) -> tuple[int, dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    if home is not None:
        env["HOME"] = str(home)
    done = subprocess.run(
        [PROCLER, *args], cwd=cwd, capture_output=True, text=True, timeout=60, env=env
    )
    return done.returncode, json.loads(done.stdout)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("target", sorted(FOLDERS))
def test_the_skill_installs_where_each_agent_looks(tmp_path: Path, target: str) -> None:
    code, answer = procler(tmp_path, "skills", "install", "--target", target)
    assert code == 0, answer
    folder = tmp_path / FOLDERS[target] / "procler"
    assert answer["data"]["folders"] == {target: FOLDERS[target]}
    assert answer["data"]["files"] == [
        {"path": f"{FOLDERS[target]}/procler/{name}", "action": "created"}
        for name in skill_files()["procler"]
    ]
    assert sorted(tree(folder)) == sorted([*FILES, ".installed.json"])
    for name, text in skill_files()["procler"].items():
        assert (folder / name).read_text("utf-8") == text
    assert skill_problems(folder) == []
    assert sorted(tree(tmp_path)) == sorted(f"{FOLDERS[target]}/procler/{n}" for n in tree(folder))


def test_a_second_install_changes_nothing(tmp_path: Path) -> None:
    assert procler(tmp_path, "skills", "install")[0] == 0
    before = {p: (tmp_path / p).stat().st_mtime_ns for p in tree(tmp_path)}
    code, answer = procler(tmp_path, "skills", "install")
    assert (code, answer["data"]["summary"]) == (0, {"unchanged": 3 * len(FILES)})
    assert {p: (tmp_path / p).stat().st_mtime_ns for p in tree(tmp_path)} == before


def test_a_file_the_user_changed_is_kept_unless_force(tmp_path: Path) -> None:
    assert procler(tmp_path, "skills", "install", "--target", "claude")[0] == 0
    mine = tmp_path / ".claude/skills/procler/SKILL.md"
    mine.write_text("my own notes\n")
    code, answer = procler(tmp_path, "skills", "install")  # all three targets
    assert (code, answer["error_code"]) == (2, "FILE_CHANGED")
    assert answer["data"]["files"] == [".claude/skills/procler/SKILL.md"]
    assert mine.read_text() == "my own notes\n"
    assert not (tmp_path / ".github").exists() and not (tmp_path / ".agents").exists()
    code, answer = procler(tmp_path, "skills", "install", "--force")
    assert code == 0
    assert {"path": ".claude/skills/procler/SKILL.md", "action": "replaced"} in answer["data"][
        "files"
    ]
    assert mine.read_text("utf-8") == skill_files()["procler"]["SKILL.md"]


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    code, answer = procler(tmp_path, "skills", "install", "--dry-run")
    assert (code, answer["data"]["dry_run"], answer["data"]["summary"]) == (
        0, True, {"created": 3 * len(FILES)}
    )  # fmt: skip
    assert tree(tmp_path) == {}


def test_user_scope_writes_under_home(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    code, answer = procler(work, "skills", "install", "--user", home=home)
    assert code == 0, answer
    assert answer["data"]["scope"] == "user"
    assert answer["data"]["folders"] == HOME_FOLDERS
    for folder in HOME_FOLDERS.values():
        assert (home / folder / "procler" / "SKILL.md").is_file()
    assert tree(work) == {}


def test_project_and_user_together_are_refused(tmp_path: Path) -> None:
    code, answer = procler(tmp_path, "skills", "install", "--user", "--project", str(tmp_path))
    assert (code, answer["error_code"]) == (2, "USAGE")
    assert tree(tmp_path) == {}


def test_config_init_offers_the_skill(tmp_path: Path) -> None:
    code, answer = procler(tmp_path, "config", "init", "--skills")
    assert code == 0, answer
    assert (tmp_path / ".procler" / "config.yaml").is_file()
    assert answer["data"]["skills"]["summary"] == {"created": 3 * len(FILES)}
    for folder in FOLDERS.values():
        assert (tmp_path / folder / "procler" / "SKILL.md").is_file()


def test_config_init_refuses_before_writing_when_a_skill_file_was_changed(tmp_path: Path) -> None:
    mine = tmp_path / ".github/skills/procler/SKILL.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("a skill of my own\n")
    code, answer = procler(tmp_path, "config", "init", "--skills")
    assert (code, answer["error_code"]) == (2, "FILE_CHANGED")
    assert not (tmp_path / ".procler").exists()
    assert mine.read_text() == "a skill of my own\n"
