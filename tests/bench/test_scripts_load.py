"""Every bench `make bench` runs can find what it imports on today's tree (a helper moved in
the tests, a module renamed): each import of each script resolves, from the bench folder and
the folders the benches add to their path (the test kits). Nothing is run."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from suite import BENCH, SUITE

ROOT = BENCH.parent
# where a bench finds its modules: its own folder, and the test kits some insert into sys.path
SEARCHED = [BENCH, *(ROOT / "packages" / p / "tests" for p in ("procler", "officecli"))]


def _imports(script: Path) -> set[str]:
    """The top-level modules a script imports, by name (relative imports have none)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(script.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def _found(name: str) -> bool:
    top = name.partition(".")[0]
    if any((folder / f"{top}.py").is_file() or (folder / top).is_dir() for folder in SEARCHED):
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_every_import_of_every_bench_resolves() -> None:
    missing = {
        f"{script}: {name}"
        for script in sorted({argv[0] for argv in SUITE})
        for name in _imports(BENCH / script)
        if not _found(name)
    }
    assert missing == set()
