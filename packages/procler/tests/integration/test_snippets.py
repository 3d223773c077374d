"""Snippets through a real supervisor: typed arguments quoted for the shell, exit codes,
timeout, and save/remove in the runtime definitions file (done by the CLI). Refused
arguments, failures and confirm are tested in process: supervisor/test_one_off_commands.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project

ECHO = f"{PY} -c 'import sys; print(sys.argv[1:])'"
CONFIG = f"""
version: 1
processes:
  idle:
    args: [python3, -c, "pass"]
snippets:
  greet:
    command: "{ECHO} @{{name}} @{{count}} @{{loud}} @{{mode:fast}} \\\\@{{literal}}"
    tags: [demo]
    args:
      count: {{type: integer, default: "1"}}
      loud: {{type: boolean, default: "no"}}
      mode: {{choices: [fast, slow]}}
  fail:
    command: "{PY} -c 'import sys; print(\\"bad\\"); sys.exit(5)'"
  slow:
    command: "{PY} -c 'import time; time.sleep(30)'"
    timeout: 1s
  reset:
    command: "echo reset"
    confirm: true
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    proj = Project(tmp_path, CONFIG)
    yield proj
    proj.close()


def test_typed_arguments_are_quoted_as_one_word(project: Project) -> None:
    data = project.ok("snippet", "run", "greet", "--arg", "name=x; rm -rf /", "--arg", "count=3")
    assert data["stdout"] == "['x; rm -rf /', '3', 'false', 'fast', '@{literal}']\n"
    assert data["command"] == f"{ECHO} 'x; rm -rf /' 3 false fast @{{literal}}"
    assert (data["snippet"], data["exit_code"], data["timed_out"]) == ("greet", 0, False)


def test_a_snippet_past_its_timeout_is_stopped(project: Project) -> None:
    code, answer = project.run("snippet", "run", "slow")
    assert (code, answer["error_code"], answer["data"]["timed_out"]) == (1, "TIMEOUT", True)
    assert project.marked_pids() == []


def test_save_list_show_remove(project: Project) -> None:
    saved = project.ok("snippet", "save", "size", "--command", "echo @{path:data}", "--tag", "db")
    assert (saved["changed"], saved["snippet"]["command"]) == (True, "echo @{path:data}")
    assert (
        project.ok("snippet", "save", "size", "--command", "echo @{path:data}", "--tag", "db")[
            "changed"
        ]
        is False
    )
    code, answer = project.run("snippet", "save", "size", "--command", "echo other")
    assert (code, answer["error_code"]) == (2, "CONFLICT")
    stored = json.loads((project.root / ".procler" / "state" / "definitions.json").read_text())
    assert stored["snippets"]["size"]["command"] == "echo @{path:data}"
    listed = project.ok("snippet", "list", "--tag", "db")["snippets"]
    assert [(s["name"], s["source"]) for s in listed] == [("size", "runtime")]
    shown = project.ok("snippet", "show", "size")
    assert shown["args"] == [
        {
            "name": "path",
            "type": "string",
            "default": "data",
            "required": False,
            "choices": [],
            "description": "",
        }
    ]
    assert project.ok("snippet", "run", "size")["stdout"] == "data\n"
    assert project.ok("snippet", "remove", "size") == {"name": "size", "removed": True}
    assert project.ok("snippet", "remove", "size") == {"name": "size", "removed": False}
    code, answer = project.run("snippet", "show", "size")
    assert (code, answer["error_code"]) == (2, "SNIPPET_NOT_FOUND")


def test_a_saved_snippet_keeps_its_container_context(project: Project) -> None:
    saved = project.ok(
        "snippet", "save", "vacuum", "--command", "vacuumdb", "--context", "podman",
        "--container", "db",
    )  # fmt: skip
    assert (saved["snippet"]["context"], saved["snippet"]["container"]) == ("podman", "db")
    stored = json.loads((project.root / ".procler" / "state" / "definitions.json").read_text())
    assert (stored["snippets"]["vacuum"]["context"], stored["snippets"]["vacuum"]["container"]) == (
        "podman",
        "db",
    )
    shown = project.ok("snippet", "show", "vacuum")
    assert (shown["context"], shown["container"]) == ("podman", "db")
    code, answer = project.run("snippet", "save", "bad", "--command", "x", "--context", "podman")
    assert (code, answer["error_code"], answer["error"]) == (
        2,
        "USAGE",
        "--context podman needs --container NAME",
    )
    assert (
        "bad"
        not in json.loads((project.root / ".procler" / "state" / "definitions.json").read_text())[
            "snippets"
        ]
    )
