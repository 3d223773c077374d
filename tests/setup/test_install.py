"""`make install` installs what was tested: every package in the tools' environments has the
version uv.lock pins, the commands work, and a change to our sources is installed (never a
stale build of the same version from uv's cache)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKSPACE = {"agentcli", "procler", "officecli"}
TOOLS = {
    "procler": ["procler"],
    "officecli": ["doc2md", "fieldcheck", "design-diff", "office-replace", "office-tools"],
}
VERSIONS = (
    "import importlib.metadata as m, json; "
    "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"
)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked() -> dict[str, str]:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    return {canonical(p["name"]): p["version"] for p in lock["package"] if "version" in p}


def copy_of_the_tree(into: Path) -> Path:
    """This checkout's tracked and unignored files (its sources as they are now)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


def install(tree: Path, tools: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
        "UV_TOOL_DIR": str(tools / "envs"),
        "UV_TOOL_BIN_DIR": str(tools / "bin"),
        "TOOLS": str(ROOT / ".tools"),  # the bootstrapped uv, when none is on PATH
    }
    done = subprocess.run(
        ["make", "-s", "install"], cwd=tree, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_make_install_installs_the_locked_versions_and_our_current_sources(
    tmp_path: Path,
) -> None:
    tree, tools = copy_of_the_tree(tmp_path / "tree"), tmp_path / "tools"
    install(tree, tools)
    pins = locked()
    for tool, commands in TOOLS.items():
        python = tools / "envs" / tool / "bin" / "python"
        listed = subprocess.run([python, "-c", VERSIONS], capture_output=True, text=True)
        installed = {canonical(k): v for k, v in json.loads(listed.stdout).items()}
        assert WORKSPACE & set(installed), tool
        differs = {
            name: (version, pins.get(name))
            for name, version in installed.items()
            if name not in WORKSPACE and pins.get(name) != version
        }
        assert differs == {}, f"{tool}: installed, locked"
        for command in commands:  # the commands are there, and run from the tool environment
            answer = subprocess.run(
                [tools / "bin" / command, "capabilities"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert answer.returncode == 0, f"{command}: {answer.stderr[-2000:]}"
            assert json.loads(answer.stdout)["success"] is True, command
    # The same version with other sources (a merge, an edit): installed again, not the cache's.
    with (tree / "packages" / "agentcli" / "src" / "agentcli" / "__init__.py").open("a") as f:
        f.write("\nINSTALL_TEST_MARK = 1\n")
    install(tree, tools)
    for tool in TOOLS:
        mark = subprocess.run(
            [
                tools / "envs" / tool / "bin" / "python",
                "-c",
                "import agentcli as a; print(a.__dict__.get('INSTALL_TEST_MARK'))",
            ],
            capture_output=True,
            text=True,
        )
        assert mark.stdout.strip() == "1", tool
