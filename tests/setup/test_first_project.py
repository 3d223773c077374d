"""README's first project is true as written: its YAML is a valid config (validated by the
real CLI), and every command of the blocks after it parses against its tool's declarations,
so a renamed command or option fails here instead of in a newcomer's terminal."""

from __future__ import annotations

import importlib
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from generated_docs import tools

from agentcli.parser import parse

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- first-project:"


def section() -> str:
    """README from the marker to the next heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(MARKER)
    end = text.index("\n## ", start)
    return text[start:end]


def blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", section(), re.M | re.S)


def test_the_config_of_the_first_project_is_valid(tmp_path: Path) -> None:
    (config,) = blocks("yaml")
    (tmp_path / ".procler").mkdir()
    (tmp_path / ".procler" / "config.yaml").write_text(config, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "from procler.cli import main; main()", "config", "validate"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    answer = json.loads(done.stdout)
    assert (done.returncode, answer["data"]["valid"], answer["data"]["warnings"]) == (
        0,
        True,
        [],
    ), answer


def test_every_command_of_the_first_project_parses() -> None:
    apps = {app.name: app for app in tools()}
    commands = [
        shlex.split(line, comments=True)
        for block in blocks("sh")
        for line in block.splitlines()
        if line.strip()
    ]
    assert sorted({argv[0] for argv in commands}) == ["doc2md", "fieldcheck", "procler"]
    for tool, *args in commands:
        # an office tool's shorthand (`doc2md FILE` for `doc2md convert FILE`), as its entry
        # spells it out
        package = "procler" if tool == "procler" else f"officecli.{tool.replace('-', '_')}"
        entry = importlib.import_module(f"{package}.cli")
        command, _values = parse(apps[tool], getattr(entry, "expanded", list)(args))
        assert command is not None, (tool, args)
