"""`make install` installs what was tested: every package in the tools' environments has the
version uv.lock pins, and the commands work."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKSPACE = {"agentcli", "procler", "officecli"}
TOOLS = {
    "procler": ["procler"],
    "officecli": ["doc2md", "fieldcheck", "design-diff", "office-replace"],
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


def test_make_install_installs_the_locked_versions(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
        "UV_TOOL_DIR": str(tmp_path / "tools"),
        "UV_TOOL_BIN_DIR": str(tmp_path / "bin"),
    }
    done = subprocess.run(
        ["make", "-s", "install"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    pins = locked()
    for tool, commands in TOOLS.items():
        python = tmp_path / "tools" / tool / "bin" / "python"
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
                [tmp_path / "bin" / command, "capabilities"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert json.loads(answer.stdout)["success"] is True, command
