"""Validation findings that point at a place in the YAML: file, line, column and path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Finding:
    file: str
    line: int  # 1-based; a finding about the file as a whole is at 1:1, where it starts
    column: int  # 1-based
    path: str  # YAML path, e.g. processes.worker.depends_on[0].name
    message: str
    suggestion: str  # never empty: every finding says how to fix it

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "message": self.message,
            "suggestion": self.suggestion,
        }

    def one_line(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        return f"{where}: {self.path + ': ' if self.path else ''}{self.message}"


def child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def item(path: str, index: int) -> str:
    return f"{path}[{index}]"


def parent(path: str) -> str:
    """The enclosing path: a.b[0].c -> a.b[0] -> a.b -> a -> ''."""
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


class Positioned(Protocol):
    """A YAML node: where it was written."""

    line: int
    column: int
    file: str


class Findings:
    """Collects every finding of a config's files, and where each path's value was written
    (a config of several files merged: each value keeps the file it came from)."""

    def __init__(self, file: str, files: list[str] | None = None) -> None:
        self.file = file  # the first file: findings about no value in particular
        self.files = files or [file]  # in merge order: findings are listed in it
        self.items: list[Finding] = []
        # accepted, but worth knowing (e.g. a Procler 0.3 key read differently): never invalid
        self.warnings: list[Finding] = []
        self.positions: dict[str, tuple[int, int, str]] = {}

    def mark(self, path: str, node: Positioned) -> None:
        self.positions.setdefault(path, (node.line, node.column, node.file or self.file))

    def at(
        self, line: int, column: int, path: str, message: str, suggestion: str, file: str = ""
    ) -> None:
        found = Finding(file or self.file, line, column, path, message, suggestion)
        if found not in self.items:  # each replica of a process would say it again
            self.items.append(found)

    def on(self, node: Positioned, path: str, message: str, suggestion: str) -> None:
        """A finding at a node, in the file it was written in."""
        self.at(node.line, node.column, path, message, suggestion, node.file)

    def add(self, path: str, message: str, suggestion: str) -> None:
        """A finding at the value of `path` (or of its nearest marked ancestor)."""
        line, column, file = self._position(path)
        self.at(line, column, path, message, suggestion, file)

    def warn(self, path: str, message: str, suggestion: str = "") -> None:
        """A warning at the value of `path`: reported, but the config stays valid."""
        line, column, file = self._position(path)
        found = Finding(file, line, column, path, message, suggestion)
        if found not in self.warnings:
            self.warnings.append(found)

    def _position(self, path: str) -> tuple[int, int, str]:
        probe = path
        while probe and probe not in self.positions:
            probe = parent(probe)
        return self.positions.get(probe, (1, 1, self.file))  # nothing marked: the file's start

    def __bool__(self) -> bool:
        return bool(self.items)

    def _order(self, found: Finding) -> tuple[int, int, int]:
        rank = self.files.index(found.file) if found.file in self.files else len(self.files)
        return rank, found.line, found.column

    def ordered(self) -> list[Finding]:
        """Every finding, in file order (the files in merge order; line, then column)."""
        return sorted(self.items, key=self._order)

    def as_dicts(self) -> list[dict[str, Any]]:
        return [f.as_dict() for f in self.ordered()]

    def warning_dicts(self) -> list[dict[str, Any]]:
        return [f.as_dict() for f in sorted(self.warnings, key=self._order)]
