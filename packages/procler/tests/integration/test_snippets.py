"""Snippets through a real supervisor: typed arguments quoted for the shell, exit codes,
timeout, confirm, and save/remove in the runtime definitions file."""

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


def test_bad_arguments_are_usage_errors_and_run_nothing(project: Project) -> None:
    cases = {
        ("--arg", "name=a", "--arg", "count=3; id"): "count must be an integer, not '3; id'",
        ("--arg", "name=a", "--arg", "mode=medium"): "mode must be one of fast, slow, not 'medium'",
        ("--arg", "count=2"): "argument name is required (--arg name=VALUE)",
        ("--arg", "name=a", "--arg", "colour=red"): (
            "unknown argument 'colour'; the snippet takes: count, loud, mode, name"
        ),
    }
    for args, error in cases.items():
        code, answer = project.run("snippet", "run", "greet", *args)
        assert (code, answer["error_code"], answer["error"]) == (
            2,
            "INVALID_ARGUMENT",
            f"snippet greet: {error}",
        )


def test_a_failing_snippet_is_command_failed(project: Project) -> None:
    code, answer = project.run("snippet", "run", "fail")
    assert (code, answer["success"], answer["error_code"]) == (1, False, "COMMAND_FAILED")
    assert (answer["data"]["exit_code"], answer["data"]["stdout"]) == (5, "bad\n")


def test_a_snippet_past_its_timeout_is_stopped(project: Project) -> None:
    code, answer = project.run("snippet", "run", "slow")
    assert (code, answer["error_code"], answer["data"]["timed_out"]) == (1, "TIMEOUT", True)
    assert project.marked_pids() == []


def test_confirm_needs_yes(project: Project) -> None:
    code, answer = project.run("snippet", "run", "reset")
    assert (code, answer["error_code"], answer["data"]) == (
        2,
        "CONFIRMATION_REQUIRED",
        {"snippet": "reset", "command": "echo reset"},
    )
    assert project.ok("snippet", "run", "reset", "--yes")["stdout"] == "reset\n"


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
