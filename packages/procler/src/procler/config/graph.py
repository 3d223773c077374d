"""The dependency graph between processes: start levels, stop order, closures and cycles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from procler.config.model import ProcessSpec, ProjectConfig


@dataclass(frozen=True)
class Cycle:
    """A dependency cycle; the entry closing it is `path[-1]` in `path[-2]`'s depends_on."""

    path: tuple[str, ...]  # first == last, e.g. (a, b, c, a)

    def describe(self) -> str:
        return " -> ".join(self.path)


class DependencyGraph:
    """Edges point from a process to what it depends on; order follows the config."""

    def __init__(self, edges: Mapping[str, Iterable[str]]) -> None:
        self.edges: dict[str, tuple[str, ...]] = {n: tuple(d) for n, d in edges.items()}
        self.order = {name: i for i, name in enumerate(self.edges)}

    @classmethod
    def from_config(cls, config: ProjectConfig) -> DependencyGraph:
        return cls({n: [d.name for d in p.depends_on] for n, p in config.processes.items()})

    @classmethod
    def as_written(cls, processes: Mapping[str, ProcessSpec]) -> DependencyGraph:
        """Between processes as the config names them: instances folded into theirs."""
        return cls(
            {
                spec.replica_of or name: [d.replica_of or d.name for d in spec.depends_on]
                for name, spec in processes.items()
            }
        )

    def dependencies(self, name: str) -> list[str]:
        """Everything `name` depends on, transitively (not itself), in config order."""
        return self._closure([name], self.edges)

    def dependents(self, name: str) -> list[str]:
        """Everything that depends on `name`, transitively (not itself), in config order."""
        reverse: dict[str, list[str]] = {n: [] for n in self.edges}
        for node, deps in self.edges.items():
            for dep in deps:
                reverse.setdefault(dep, []).append(node)
        return self._closure([name], reverse)

    def start_levels(self, targets: Iterable[str] | None = None) -> list[list[str]]:
        """Levels to start in order; the processes inside one level are independent.

        With targets, only those and their transitive dependencies. Assumes no cycle.
        """
        wanted = self._selection(targets)
        level_of: dict[str, int] = {}

        def level(node: str) -> int:
            if node not in level_of:
                level_of[node] = 0  # guards against a cycle turning into infinite recursion
                deps = [d for d in self.edges.get(node, ()) if d in wanted]
                level_of[node] = 1 + max((level(d) for d in deps), default=-1)
            return level_of[node]

        levels: list[list[str]] = []
        for node in sorted(wanted, key=self._rank):
            depth = level(node)
            while len(levels) <= depth:
                levels.append([])
            levels[depth].append(node)
        return levels

    def stop_levels(self, targets: Iterable[str] | None = None) -> list[list[str]]:
        """Levels to stop in order: dependents before what they depend on."""
        return list(reversed(self.start_levels(targets)))

    def start_order(self, targets: Iterable[str] | None = None) -> list[str]:
        return [name for level in self.start_levels(targets) for name in level]

    def listed_order(
        self, members: Iterable[str]
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """A group's list order (Procler 0.3 starts a group in it): the pairs (earlier,
        later) of consecutive members it adds to the dependencies, and those it contradicts
        (the earlier one depends on the later: the dependency wins). A pair whose later
        member depends on the earlier one already is neither."""
        listed = list(members)
        added, contradicted = [], []
        for earlier, later in pairwise(listed):
            if earlier in self.dependencies(later):
                continue
            if later in self.dependencies(earlier):
                contradicted.append((earlier, later))
            else:
                added.append((earlier, later))
        return added, contradicted

    def cycles(self) -> list[Cycle]:
        """Each cycle once, found depth-first in config order."""
        found: list[Cycle] = []
        done: set[str] = set()
        stack: list[str] = []

        def visit(node: str) -> None:
            stack.append(node)
            for dep in self.edges.get(node, ()):
                if dep in stack:
                    found.append(Cycle((*stack[stack.index(dep) :], dep)))
                elif dep not in done and dep in self.edges:
                    visit(dep)
            stack.pop()
            done.add(node)

        for node in self.edges:
            if node not in done:
                visit(node)
        return found

    def _rank(self, name: str) -> int:
        return self.order.get(name, len(self.order))

    def _selection(self, targets: Iterable[str] | None) -> set[str]:
        if targets is None:
            return set(self.edges)
        names = list(targets)
        return {*names, *self._closure(names, self.edges)}

    def _closure(self, start: list[str], edges: Mapping[str, Iterable[str]]) -> list[str]:
        seen: set[str] = set()
        todo = list(start)
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        seen.difference_update(start)
        return sorted(seen, key=self._rank)
