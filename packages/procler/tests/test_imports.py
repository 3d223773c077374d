"""The import graph of the three packages: no cycle, and the supervisor never reaches the CLI.

Every import statement counts, including those inside functions and under TYPE_CHECKING:
a lazy import still makes one module depend on the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGES = Path(__file__).resolve().parents[2]
SOURCES = [PACKAGES / name / "src" for name in ("procler", "agentcli", "officecli")]


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the three packages."""
    found = {}
    for src in SOURCES:
        for path in sorted(src.rglob("*.py")):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = {f"{base}.{alias.name}" for alias in node.names}
            # `from package import module` depends on the module; any other name, on base.
            targets.update(names if names <= known else {base})
    resolved = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_sees_the_imports() -> None:
    graph = import_graph()
    assert {"procler.cli.config", "procler.cli.logs", "agentcli.commands"} <= graph["procler.cli"]
    assert "procler.cli.client" in graph["procler.cli.processes"]  # inside a function
    assert "procler.supervisor.runtime" in graph["procler.supervisor.core"]


def test_the_walk_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_no_supervisor_module_imports_a_cli_module() -> None:
    graph = import_graph()
    reached = {
        (name, target)
        for name, targets in graph.items()
        if name == "procler.supervisor" or name.startswith("procler.supervisor.")
        for target in targets
        if target == "procler.cli" or target.startswith("procler.cli.") or target == "procler.entry"
    }
    assert reached == set()
