"""The import graph of the three packages: no cycle, the supervisor never reaches the CLI,
and inside the supervisor every import points down its rooms:
main -> api -> commands -> recipes -> operations -> engine -> contexts.

Every import counts, including those inside functions and under TYPE_CHECKING (a lazy
import still makes one module depend on the other), and a module named by a string to
`importlib.import_module` or `__import__` (as the TCP listener loads the MCP SDK's side).
"""

from __future__ import annotations

import ast
import subprocess
import sys
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


IMPORTERS = ("import_module", "__import__")


def _string_imports(node: ast.Call) -> set[str]:
    """The modules a call imports by name: `import_module("x")`, `__import__("x")`, or
    one of them handed on with its argument (`asyncio.to_thread(import_module, "x")`)."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    args = list(node.args)
    if called not in IMPORTERS:
        for i, arg in enumerate(args):
            name = arg.attr if isinstance(arg, ast.Attribute) else getattr(arg, "id", "")
            if name in IMPORTERS:
                args = args[i + 1 :]
                break
        else:
            return set()
    first = args[0] if args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return {first.value}
    return set()


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
        elif isinstance(node, ast.Call):
            targets.update(_string_imports(node))
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
    assert {"procler.declarations.config", "agentcli.commands"} <= graph["procler.declarations"]
    assert "procler.cli.client" in graph["procler.cli.processes"]  # inside a function
    assert "procler.supervisor.runtime" in graph["procler.supervisor.core"]
    # by a string handed to asyncio.to_thread(importlib.import_module, ...)
    assert "procler.supervisor.api.mcp_http" in graph["procler.supervisor.api.tcp_listener"]


def test_the_walk_reads_string_imports() -> None:
    calls = (
        'importlib.import_module("a.b")',
        '__import__("a")',
        'asyncio.to_thread(importlib.import_module, "a.c")',
        "importlib.import_module(name)",
        'print("a.d")',
    )
    found = []
    for call in calls:
        (statement,) = ast.parse(call).body
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
        found.append(_string_imports(statement.value))
    assert found == [{"a.b"}, {"a"}, {"a.c"}, set(), set()]


def test_the_walk_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def closure(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` reaches through its imports (itself included)."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += graph.get(name, set())
    return seen


def within(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


SUPERVISOR = ("procler.supervisor", "procler.supervisor_entry")
CLIENT_SIDE = ("procler.cli", "procler.entry", "procler.tui", "procler.foreground")


def test_no_supervisor_module_reaches_a_cli_module() -> None:
    """Not even through another module: the supervisor process loads no CLI code."""
    graph = import_graph()
    reached = {
        (name, target)
        for name in graph
        if within(name, *SUPERVISOR)
        for target in closure(graph, name)
        if within(target, *CLIENT_SIDE)
    }
    assert reached == set()


# The supervisor's rooms, top first: a module imports its own room and those below it,
# never one above (engine: every other supervisor module; contexts: procler.contexts).
ROOMS = (
    ("procler.supervisor_entry", "procler.supervisor.main"),
    ("procler.supervisor.api",),
    ("procler.supervisor.commands",),
    ("procler.supervisor.recipes",),
    ("procler.supervisor.operations",),
    ("procler.supervisor",),
    ("procler.contexts",),
)


def room(name: str) -> int | None:
    for level, packages in enumerate(ROOMS):
        if within(name, *packages):
            return level
    return None


def test_the_rooms_import_only_downwards() -> None:
    graph = import_graph()
    upwards = sorted(
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if (here := room(name)) is not None and (there := room(target)) is not None and there < here
    )
    assert upwards == []


def test_the_rooms_are_where_the_test_looks() -> None:
    graph = import_graph()
    assert all(p in graph for packages in ROOMS for p in packages)
    modules = (
        "procler.supervisor.main",
        "procler.supervisor.api.mcp_http",
        "procler.supervisor.commands.processes",
        "procler.supervisor.recipes.steps",
        "procler.supervisor.operations",
        "procler.supervisor.runtime",
        "procler.contexts.local",
    )
    assert [room(m) for m in modules] == list(range(len(ROOMS)))


def test_shared_modules_import_neither_side() -> None:
    """What both processes load (declarations, config, logs, states ...) and the execution
    contexts import no supervisor, CLI or TUI module."""
    graph = import_graph()
    sides = (*SUPERVISOR, *CLIENT_SIDE)
    leaks = sorted(
        (name, target)
        for name, targets in graph.items()
        if name.startswith("procler.") and not within(name, *sides)
        for target in targets
        if within(target, *sides)
    )
    assert leaks == []


SUPERVISOR_SIDE = """
import asyncio, importlib, pkgutil, sys
import procler.supervisor, procler.supervisor_entry
for info in pkgutil.walk_packages(procler.supervisor.__path__, "procler.supervisor."):
    importlib.import_module(info.name)
from procler.declarations import APP
from procler.supervisor.api.command_routes import Api
from procler.supervisor.api.mcp_http import answering

async def status(values):
    return {}

call = answering(Api(APP, {"status": status}, answered=frozenset(), config_path=sys.argv[1]))
for name in ("status", "config validate", "logs"):
    asyncio.run(call(APP.command(name), {"name": "api"} if name != "config validate" else {}))
print(sorted(m for m in sys.modules if m.split(".")[:2] == ["procler", "cli"] or m == "procler.entry"))
"""


def test_the_supervisor_process_never_loads_a_cli_module(tmp_path: Path) -> None:
    """At run time too (a string import, a handler named by its declaration): every
    supervisor module imported, and MCP tool calls of both kinds answered (the
    supervisor's own command in process, one the CLI runs in a child), in a fresh
    interpreter."""
    config = tmp_path / ".procler" / "config.yaml"
    config.parent.mkdir()
    config.write_text("version: 1\nprocesses:\n  api:\n    command: sleep 60\n")
    proc = subprocess.run(
        [sys.executable, "-c", SUPERVISOR_SIDE, str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert (proc.returncode, proc.stdout) == (0, "[]\n"), proc.stderr
