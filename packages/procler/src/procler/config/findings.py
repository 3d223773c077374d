"""Validation findings that point at a place in the YAML: file, line, column and path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


class Findings:
    """Collects every finding of one file, and where each path's value sits in it."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Finding] = []
        # accepted, but worth knowing (e.g. a Procler 0.3 key read differently): never invalid
        self.warnings: list[Finding] = []
        self.positions: dict[str, tuple[int, int]] = {}

    def mark(self, path: str, line: int, column: int) -> None:
        self.positions.setdefault(path, (line, column))

    def at(self, line: int, column: int, path: str, message: str, suggestion: str) -> None:
        found = Finding(self.file, line, column, path, message, suggestion)
        if found not in self.items:  # each replica of a process would say it again
            self.items.append(found)

    def add(self, path: str, message: str, suggestion: str) -> None:
        """A finding at the value of `path` (or of its nearest marked ancestor)."""
        self.at(*self._position(path), path, message, suggestion)

    def warn(self, path: str, message: str, suggestion: str = "") -> None:
        """A warning at the value of `path`: reported, but the config stays valid."""
        found = Finding(self.file, *self._position(path), path, message, suggestion)
        if found not in self.warnings:
            self.warnings.append(found)

    def _position(self, path: str) -> tuple[int, int]:
        probe = path
        while probe and probe not in self.positions:
            probe = parent(probe)
        return self.positions.get(probe, (1, 1))  # nothing marked: the file's start

    def __bool__(self) -> bool:
        return bool(self.items)

    def ordered(self) -> list[Finding]:
        """Every finding, in file order (line, then column)."""
        return sorted(self.items, key=lambda f: (f.file != self.file, f.line, f.column))

    def as_dicts(self) -> list[dict[str, Any]]:
        return [f.as_dict() for f in self.ordered()]

    def warning_dicts(self) -> list[dict[str, Any]]:
        return [f.as_dict() for f in sorted(self.warnings, key=lambda f: (f.line, f.column))]
