"""README's walkthrough works as written: its commands, taken from README's marked blocks,
run in order in a fresh copy with nothing of ours on PATH; and `make demo` ends with the line
that puts the commands on PATH.

Both bring up examples/quickstart, whose API listens on a fixed port (8765): they stay in
this one file, which `make pytest` (pytest-xdist, --dist loadfile) runs on one worker."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- walkthrough:"
ACTIVATE = ". .venv/bin/activate"


def walkthrough() -> list[str]:
    """The commands of every fenced block that follows a walkthrough marker, in order."""
    commands: list[str] = []
    for block in re.findall(
        rf"^{re.escape(MARKER)}[^\n]*\n```sh\n(.*?)^```",
        (ROOT / "README.md").read_text(),
        re.M | re.S,
    ):
        commands += [line for line in block.splitlines() if line.strip()]
    return commands


def without_our_commands() -> dict[str, str]:
    """This environment with no folder on PATH that holds a `procler` (the project's venv,
    ~/.local/bin after `make install`), as in a newcomer's shell."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PROCLER_NAMESPACES")}
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if not (Path(p) / "procler").exists()
    )
    return env


def test_readme_opens_with_the_two_commands_then_the_walkthrough_with_the_path_line() -> None:
    blocks = re.findall(r"^```sh\n(.*?)^```", (ROOT / "README.md").read_text(), re.M | re.S)
    assert [line.split()[:2] for line in blocks[0].splitlines()] == [
        ["make", "demo"],
        ["make", "test"],
    ]
    commands = walkthrough()
    assert commands[0].split("#")[0].strip() == ACTIVATE
    assert blocks[1].splitlines() == commands  # the walkthrough comes next


def test_the_walkthrough_runs_as_written_in_a_fresh_copy(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "examples" / "quickstart",
        tmp_path / "examples" / "quickstart",
        ignore=shutil.ignore_patterns("state"),
    )
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    commands = walkthrough()
    assert commands, f"README has no block after a `{MARKER}` marker"
    script = "set -euo pipefail\n" + "\n".join(commands) + "\n"
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=without_our_commands(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    project = tmp_path / "examples" / "quickstart"
    stopped = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "procler"), "daemon", "stop"],
        cwd=project,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [a["success"] for a in answers] == [True] * len(answers)
    assert len(answers) == sum(c.split("#")[0].count("procler ") for c in commands)
    # what the last line promises: the stack is down and its supervisor gone
    assert json.loads(stopped.stdout)["data"]["running"] is False
    assert not (project / ".procler" / "state" / "supervisor.sock").exists()


def test_make_demo_ends_with_the_line_that_puts_the_commands_on_path() -> None:
    done = subprocess.run(
        ["make", "-s", "demo"],
        cwd=ROOT,
        env=without_our_commands(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().splitlines()[-5:] == [
        "The commands (procler, doc2md, fieldcheck, design-diff, office-replace, office-tools) on "
        "PATH in this shell:",
        "",
        f"    {ACTIVATE}",
        "",
        "or for good, in ~/.local/bin: make install",
    ]
