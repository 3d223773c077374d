"""Which changed files a process's `watch:` cares about, and which folders to watch.

A file counts when one of its globs matches it (relative to the process's cwd, or
absolute), none of its excludes does, it is under none of the folders nobody means to
watch (`.git`, `node_modules`, `.venv`, `__pycache__`, `.procler`), it is no editor swap
file, and the project's `.gitignore` does not ignore it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pathspec

from procler.config.model import WatchSpec
from procler.globs import glob_pattern, static_prefix

IGNORED_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", ".procler"})
# vim (.swp/.swo/.swx, and the 4913 file it probes a folder with), emacs (~, .#, #...#)
SWAP_FILES = tuple(glob_pattern(g) for g in ("*.swp", "*.swo", "*.swx", "*~", ".#*", "#*#", "4913"))


def gitignore(root: str) -> pathspec.GitIgnoreSpec | None:
    """The project's .gitignore (the project's own file, read once per config)."""
    try:
        text = Path(root, ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


class PathFilter:
    def __init__(
        self, spec: WatchSpec, cwd: str, root: str, ignored: pathspec.GitIgnoreSpec | None
    ) -> None:
        self.cwd, self.root, self.ignored = cwd, root, ignored
        self.paths = [glob_pattern(g) for g in spec.paths]
        self.exclude = [glob_pattern(g) for g in spec.exclude]
        self.globs = spec.paths

    def roots(self) -> set[str]:
        """The folders to watch: each glob's fixed part, or its nearest existing folder."""
        found = set()
        for glob in self.globs:
            path = os.path.normpath(os.path.join(self.cwd, static_prefix(glob)))
            while not os.path.isdir(path) and os.path.dirname(path) != path:
                path = os.path.dirname(path)
            found.add(path)
        return found

    def wants(self, path: str) -> str | None:
        """The file as the globs see it (relative to the cwd) when it counts, else None."""
        rel = os.path.relpath(path, self.cwd)
        in_root = os.path.relpath(path, self.root)
        parts = in_root.split(os.sep)
        if IGNORED_DIRS.intersection(parts) or any(p.search(parts[-1]) for p in SWAP_FILES):
            return None
        if (
            self.ignored is not None
            and not in_root.startswith("..")
            and self.ignored.match_file(in_root)
        ):
            return None
        candidates = (rel, path) if not rel.startswith("..") else (path,)
        if any(p.search(c) for p in self.exclude for c in candidates):
            return None
        return rel if any(p.search(c) for p in self.paths for c in candidates) else None


def watched_folders(roots: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(folders watched with everything under them, folders watched alone). A folder
    inside another is covered by it; a folder holding one nobody means to watch (the
    project root with its .venv) is watched alone, its other subfolders whole, so inotify
    is not asked for a watch on every folder of a virtualenv or node_modules."""
    outer = {
        r for r in roots if not any(r != o and r.startswith(o.rstrip("/") + "/") for o in roots)
    }
    deep: set[str] = set()
    alone: set[str] = set()
    for folder in outer:
        try:
            entries = [e for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)]
        except OSError:
            entries = []
        if any(e.name in IGNORED_DIRS for e in entries):
            alone.add(folder)
            deep.update(e.path for e in entries if e.name not in IGNORED_DIRS)
        else:
            deep.add(folder)
    return frozenset(deep), frozenset(alone)
