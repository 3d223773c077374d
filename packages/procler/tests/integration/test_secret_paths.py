"""A symlink to a file of secrets, fed to every path-taking option of every Procler command
(walked from the declarations: `--config` on each, `--cwd`, `--keys`, an import's source
and the config it merges into): no line of the secret reaches stdout or stderr."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest
from procler_testkit.harness import PROCLER, PY, Project

from agentcli.commands import Arg, Command, command_args
from agentcli.main import with_builtins
from procler.declarations import APP

SECRET = (
    "root:$6$S3cr3tSalt$hash:20228:0:99999:7:::\n"
    "API_TOKEN=tok-S3CR3T-0123\n"
    "password: hunter2-S3CR3T\n"
)
MARKS = ("S3cr3t", "S3CR3T", "hunter2", "root:$6$", "API_TOKEN")
CONFIG = f"""version: 1
processes:
  web:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""
# a value for each required argument: the argument under test is the one that is read
VALUES = {
    "name": "web",
    "count": "2",
    "run_id": "r1",
    "cmd": "true",
    "command": "true",
    "text": "a line",
}
SKIPPED = {"mcp"}  # speaks the MCP protocol on stdin/stdout, not one answer
READ_OUTPUTS = {"output"}  # -o of `import --merge` is read before it is written


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    root = tmp_path_factory.mktemp("secret")
    (root / "vault").mkdir()
    (root / "vault" / "secret").write_text(SECRET, encoding="utf-8")
    made = Project(root / "proj", CONFIG)
    (made.root / "Procfile").write_text("worker: sleep 60\n", encoding="utf-8")
    yield made
    made.close()


def _targets(command: Command) -> list[Arg]:
    return [
        arg
        for arg in (*command_args(command), *APP.global_args)
        if arg.type == "path" or (arg.dest in READ_OUTPUTS and command.words[0] == "import")
    ]


def _argv(command: Command, target: Arg, link: str) -> list[str]:
    words = list(command.words)
    for arg in command_args(command):
        if arg is target:
            continue
        if arg.type == "remainder":
            words += ["--", "true"]
        elif arg.required and arg.positional:
            words.append("Procfile" if arg.type == "path" else VALUES[arg.dest])
        elif arg.required:
            words += [arg.flags[-1], VALUES[arg.dest]]
    words += ["--merge"] if target.dest in READ_OUTPUTS else []
    return [*words, link] if target.positional else [*words, target.flags[-1], link]


def _cases() -> list[tuple[str, str]]:
    app = with_builtins(APP)
    return [
        (command.name, target.dest)
        for command in app.commands
        if command.name not in SKIPPED
        for target in _targets(command)
    ]


@pytest.mark.parametrize(("command_name", "target"), _cases())
def test_a_symlink_to_a_secret_never_shows_the_secret(
    project: Project, command_name: str, target: str
) -> None:
    command = next(c for c in with_builtins(APP).commands if c.name == command_name)
    arg = next(a for a in _targets(command) if a.dest == target)
    link = project.root / "link.yaml"
    link.unlink(missing_ok=True)
    link.symlink_to(project.root.parent / "vault" / "secret")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    done = subprocess.run(
        [PROCLER, *_argv(command, arg, link.name)],
        cwd=project.root,
        capture_output=True,
        text=True,
        errors="replace",
        stdin=subprocess.DEVNULL,
        timeout=120,
        env=env,
    )
    for mark in MARKS:
        assert mark not in done.stdout and mark not in done.stderr, (mark, done)
    assert (project.root.parent / "vault" / "secret").read_text(encoding="utf-8") == SECRET


def test_every_path_option_is_walked() -> None:
    walked = {(c, t) for c, t in _cases()}
    assert {("import procfile", "path"), ("import procfile", "output"), ("tui", "keys")} <= walked
    assert {("status", "config"), ("define", "cwd"), ("run", "cwd")} <= walked
