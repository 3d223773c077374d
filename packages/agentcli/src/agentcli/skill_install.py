"""`TOOL skills install`: a tool's Agent Skills written where each agent looks for them.

GitHub Copilot reads `.github/skills/`, Claude Code `.claude/skills/` and Codex
`.agents/skills/` in a project; for one person across projects `~/.copilot/skills/`,
`~/.claude/skills/` and `~/.agents/skills/` (the folders VS Code's Agent Skills reference
gives for each of the three). Every folder this writes (a skill, or a tool's prompt files)
holds a manifest naming each file it wrote with its SHA-256, so that a second install
replaces only files still as it wrote them: a file the user changed, or one it did not
write, is never overwritten (FILE_CHANGED, exit 2, nothing written) unless `--force`.
Everything is planned before anything is written, so the dry run answers exactly what
the real run does.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentcli.errors import UsageError
from agentcli.outputs import write_atomic
from agentcli.skill_command import ChangedFileError

# target -> (folder in a project, folder under the home directory)
TARGETS: dict[str, tuple[str, str]] = {
    "copilot": (".github/skills", ".copilot/skills"),
    "claude": (".claude/skills", ".claude/skills"),
    "codex": (".agents/skills", ".agents/skills"),
}
MANIFEST = ".installed.json"  # in each skill folder: the files written there, with hashes


@dataclass(frozen=True)
class Bundle:
    """Files one tool owns in one folder (path inside the folder -> text), and the name of
    the manifest recording them there."""

    folder: Path
    files: dict[str, str]
    manifest: str = MANIFEST


@dataclass(frozen=True)
class Step:
    path: Path
    action: str  # created, updated, replaced, removed, unchanged
    text: str | None = None  # what to write (None: remove, or nothing to do)


def scope_of(values: dict[str, Any]) -> tuple[str, Path]:
    """('project' or 'user', the folder the target folders are under)."""
    if values.get("user") and values.get("project"):
        raise UsageError(
            "--project and --user name two places", suggestion="give one of them, or neither"
        )
    if values.get("user"):
        return "user", Path.home()
    root = Path(values.get("project") or ".").absolute()
    if not root.is_dir():
        raise UsageError(f"--project {root}: not a folder", suggestion="give the project's folder")
    return "project", root


def skills_folders(values: dict[str, Any]) -> tuple[str, Path, dict[str, Path]]:
    """(scope, root, target -> the skills folder under root) for the chosen targets."""
    scope, root = scope_of(values)
    target = values.get("target") or "all"
    chosen = list(TARGETS) if target == "all" else [target]
    where = 1 if scope == "user" else 0
    return scope, root, {t: root / TARGETS[t][where] for t in chosen}


def skill_bundles(skills: dict[str, dict[str, str]], folders: dict[str, Path]) -> list[Bundle]:
    """One bundle per skill per target folder (`skills`: name -> its files)."""
    return [
        Bundle(folder / name, files)
        for folder in folders.values()
        for name, files in skills.items()
    ]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None when there is none; a folder (or anything unreadable) in
    its place is refused, --force or not."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(
            f"{path}: cannot be replaced ({exc.strerror or exc})",
            suggestion="move it away and run again",
        ) from None


def _recorded(bundle: Bundle) -> dict[str, str]:
    try:
        files = json.loads((bundle.folder / bundle.manifest).read_text("utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def plan_bundle(bundle: Bundle, force: bool) -> tuple[list[Step], list[Path]]:
    """The steps installing `bundle` takes, and the files it would have to overwrite that
    are not as this tool wrote them."""
    recorded = _recorded(bundle)
    steps: list[Step] = []
    changed: list[Path] = []
    for name, text in bundle.files.items():
        path = bundle.folder / name
        current = _read(path)
        if current is None:
            steps.append(Step(path, "created", text))
        elif current == text.encode("utf-8"):
            steps.append(Step(path, "unchanged"))
        elif recorded.get(name) == _digest(current):
            steps.append(Step(path, "updated", text))
        else:
            changed.append(path)
            steps.append(Step(path, "replaced", text))
    for name in sorted(set(recorded) - set(bundle.files)):  # written before, no longer made
        path = bundle.folder / name
        current = _read(path)
        if current is None:
            continue
        if recorded[name] != _digest(current):
            changed.append(path)
        steps.append(Step(path, "removed"))
    return steps, ([] if force else changed)


def _manifest_text(bundle: Bundle, tool: str) -> str:
    files = {name: _digest(text.encode("utf-8")) for name, text in sorted(bundle.files.items())}
    return json.dumps({"installed_by": tool, "files": files}, indent=2) + "\n"


def install(
    bundles: list[Bundle], tool: str, *, dry_run: bool, force: bool, root: Path
) -> dict[str, Any]:
    """Plan every bundle, refuse if a changed file would be overwritten, then write."""
    plans = [(bundle, *plan_bundle(bundle, force)) for bundle in bundles]
    changed = [path for _b, _s, paths in plans for path in paths]
    shown = [_shown(p, root) for p in changed]
    if changed:
        raise ChangedFileError(
            f"{len(changed)} file(s) differ from what {tool} wrote there: {', '.join(shown)}",
            data={"files": shown, "dry_run": dry_run},
        )
    if not dry_run:
        for bundle, steps, _changed in plans:
            _apply(bundle, steps, tool)
    files = [
        {"path": _shown(step.path, root), "action": step.action}
        for _b, steps, _c in plans
        for step in steps
    ]
    summary: dict[str, int] = {}
    for entry in files:
        summary[entry["action"]] = summary.get(entry["action"], 0) + 1
    return {"dry_run": dry_run, "files": files, "summary": summary}


def _apply(bundle: Bundle, steps: list[Step], tool: str) -> None:
    for step in steps:
        if step.text is not None:
            step.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(step.path, step.text.encode("utf-8"))
        elif step.action == "removed":
            step.path.unlink(missing_ok=True)
    manifest = bundle.folder / bundle.manifest
    text = _manifest_text(bundle, tool)
    if _read(manifest) != text.encode("utf-8"):
        bundle.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(manifest, text.encode("utf-8"))


def _shown(path: Path, root: Path) -> str:
    """A path relative to the root it was installed under (absolute when outside it)."""
    try:
        return os.path.relpath(path, root) if path.is_relative_to(root) else str(path)
    except ValueError:
        return str(path)


def install_skills(
    values: dict[str, Any],
    tool: str,
    skills: dict[str, dict[str, str]],
    extra: list[Bundle] | None = None,
) -> dict[str, Any]:
    """The whole `skills install` answer for these skills (and any extra bundles)."""
    scope, root, folders = skills_folders(values)
    bundles = skill_bundles(skills, folders) + (extra or [])
    answer = install(
        bundles,
        tool,
        dry_run=bool(values.get("dry_run")),
        force=bool(values.get("force")),
        root=root,
    )
    return {
        "scope": scope,
        "root": str(root),
        "folders": {t: _shown(f, root) for t, f in folders.items()},
        **answer,
    }
