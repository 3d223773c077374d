"""Installing bundles of files with a manifest: what is written, updated, kept and removed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from agentcli.errors import UsageError
from agentcli.skill_command import ChangedFileError
from agentcli.skill_install import MANIFEST, Bundle, install, install_skills


def run(
    folder: Path, files: dict[str, str], force: bool = False, dry_run: bool = False
) -> dict[str, Any]:
    return install(
        [Bundle(folder, files)], "tool 1.0", dry_run=dry_run, force=force, root=folder.parent
    )


def actions(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f["path"], f["action"]) for f in answer["files"]]


def test_created_then_unchanged_and_the_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    assert actions(run(folder, {"SKILL.md": "a\n", "references/r.md": "b\n"})) == [
        ("s/SKILL.md", "created"),
        ("s/references/r.md", "created"),
    ]
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest == {
        "installed_by": "tool 1.0",
        "files": {
            "SKILL.md": hashlib.sha256(b"a\n").hexdigest(),
            "references/r.md": hashlib.sha256(b"b\n").hexdigest(),
        },
    }
    assert actions(run(folder, {"SKILL.md": "a\n", "references/r.md": "b\n"})) == [
        ("s/SKILL.md", "unchanged"),
        ("s/references/r.md", "unchanged"),
    ]


def test_a_new_version_updates_untouched_files_and_removes_dropped_ones(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    run(folder, {"SKILL.md": "v1\n", "old.md": "gone\n"})
    answer = run(folder, {"SKILL.md": "v2\n"})
    assert actions(answer) == [("s/SKILL.md", "updated"), ("s/old.md", "removed")]
    assert (folder / "SKILL.md").read_text() == "v2\n"
    assert not (folder / "old.md").exists()
    assert answer["summary"] == {"updated": 1, "removed": 1}


def test_changed_files_are_refused_whole_unless_force(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    run(folder, {"SKILL.md": "v1\n", "old.md": "gone\n", "r.md": "r\n"})
    (folder / "old.md").write_text("edited\n")
    (folder / "r.md").write_text("edited too\n")
    with pytest.raises(ChangedFileError) as refused:
        run(folder, {"SKILL.md": "v2\n", "r.md": "r2\n"})
    assert refused.value.data == {"files": ["s/r.md", "s/old.md"], "dry_run": False}
    assert (folder / "SKILL.md").read_text() == "v1\n"  # nothing written
    answer = run(folder, {"SKILL.md": "v2\n", "r.md": "r2\n"}, force=True)
    assert actions(answer) == [
        ("s/SKILL.md", "updated"),
        ("s/r.md", "replaced"),
        ("s/old.md", "removed"),
    ]
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST, "SKILL.md", "r.md"]


def test_a_file_nobody_installed_counts_as_changed(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("someone else's skill\n")
    with pytest.raises(ChangedFileError):
        run(folder, {"SKILL.md": "ours\n"})
    assert actions(run(folder, {"SKILL.md": "someone else's skill\n"})) == [
        ("s/SKILL.md", "unchanged")
    ]


def test_the_dry_run_answers_the_same_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    assert actions(run(folder, {"SKILL.md": "a\n"}, dry_run=True)) == [("s/SKILL.md", "created")]
    assert not folder.exists()
    run(folder, {"SKILL.md": "a\n"})
    (folder / "SKILL.md").write_text("mine\n")
    with pytest.raises(ChangedFileError) as refused:
        run(folder, {"SKILL.md": "a\n"}, dry_run=True)
    assert refused.value.data["dry_run"] is True


def test_a_folder_in_place_of_a_file_is_refused_even_with_force(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    (folder / "SKILL.md").mkdir(parents=True)
    with pytest.raises(UsageError, match=r"SKILL\.md: cannot be replaced"):
        run(folder, {"SKILL.md": "a\n"}, force=True)


def test_the_targets_and_scopes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    skills = {"tool": {"SKILL.md": "a\n"}}
    answer = install_skills({"project": str(tmp_path), "target": "codex"}, "tool", skills)
    assert (answer["scope"], answer["folders"]) == ("project", {"codex": ".agents/skills"})
    answer = install_skills({"user": True}, "tool", skills)
    assert answer["scope"] == "user"
    assert answer["folders"] == {
        "copilot": ".copilot/skills",
        "claude": ".claude/skills",
        "codex": ".agents/skills",
    }
    assert (tmp_path / "home/.copilot/skills/tool/SKILL.md").read_text() == "a\n"
    with pytest.raises(UsageError, match="not a folder"):
        install_skills({"project": str(tmp_path / "nope")}, "tool", skills)
