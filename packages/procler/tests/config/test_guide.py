"""help-llm (generated, its workflows parse), config path, list --tag/--resolve, logs -f."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from procler_testkit.config_helpers import PROCLER, run_procler, write_config

from agentcli.main import with_builtins
from agentcli.parser import parse
from procler.cli.guide import GUIDE_LIMIT, WORKFLOWS
from procler.declarations import APP


def test_every_workflow_step_is_a_real_command_line() -> None:
    app = with_builtins(APP)
    for _goal, steps in WORKFLOWS:
        for step in steps:
            words = shlex.split(step)
            assert words[0] == "procler"
            command, _values = parse(app, words[1:])
            assert command is not None, step


def test_help_llm_is_a_bounded_index_naming_every_command(project: Path) -> None:
    app = with_builtins(APP)
    proc = subprocess.run([*PROCLER, "help-llm"], cwd=project, capture_output=True, check=True)
    assert len(proc.stdout) <= GUIDE_LIMIT  # the whole answer, envelope included
    data = json.loads(proc.stdout)["data"]
    assert list(data["commands"]) == [cmd.name for cmd in app.commands]
    assert all(0 < len(line) <= 80 for line in data["commands"].values())
    assert data["exit_codes"]["2"].startswith("usage")
    assert data["workflows"][0] == {
        "goal": "start a project from nothing",
        "steps": [
            "procler config init",
            "procler config validate",
            "procler up --wait --timeout 60s",
        ],
    }
    assert "procler help-llm COMMAND" in data["more"] and "--full" in data["more"]
    assert "errors" not in data


def test_help_llm_full_lists_every_command_and_error(project: Path) -> None:
    code, answer = run_procler(project, "help-llm", "--full")
    data = answer["data"]
    app = with_builtins(APP)
    assert code == 0
    assert [c["usage"].split(" [")[0].split(" NAME")[0] for c in data["commands"]][:2] == [
        "procler config init",
        "procler config validate",
    ]
    assert len(data["commands"]) == len(app.commands)
    codes = {e.code for c in app.commands for e in c.all_errors()}
    assert [e["code"] for e in data["errors"]] == sorted(codes)


def test_help_llm_command_gives_one_command_in_full(project: Path) -> None:
    app = with_builtins(APP)
    for cmd in app.commands:
        command, values = parse(app, ["help-llm", *cmd.name.split()])
        assert command is not None and values["command"] == cmd.name.split()
    code, answer = run_procler(project, "help-llm", "group", "start")
    data = answer["data"]
    assert code == 0
    assert (data["name"], data["usage"]) == (
        "group start",
        "procler group start NAME [--timeout DURATION]",
    )
    assert [e["code"] for e in data["errors"]][:3] == [
        "CONFIG_NOT_FOUND",
        "PERMISSION_DENIED",
        "CONFIG_INVALID",
    ]
    assert all(set(e) == {"code", "exit_code", "suggestion"} for e in data["errors"])
    code, answer = run_procler(project, "help-llm", "statsu")
    assert (code, answer["error_code"], answer["suggestion"]) == (
        2,
        "USAGE",
        "did you mean status?",
    )


def test_config_path_found_and_not_found(project: Path) -> None:
    code, answer = run_procler(project, "config", "path")
    assert (code, answer["data"]) == (
        0,
        {
            "config": str(project / ".procler" / "config.yaml"),
            "files": [str(project / ".procler" / "config.yaml")],
            "exists": False,
            "root": str(project),
        },
    )
    path = write_config(project, "processes:\n  a: {command: 'true'}\n")
    (project / "sub").mkdir()
    code, answer = run_procler(project / "sub", "config", "path")
    assert (code, answer["data"]) == (
        0,
        {"config": str(path), "files": [str(path)], "exists": True, "root": str(project)},
    )


def test_list_filters_by_tag_and_resolves(project: Path) -> None:
    write_config(
        project,
        """
        vars: {PORT: "8001"}
        processes:
          api: {command: "serve --port ${PORT}", tags: [backend, http]}
          web: {command: "vite", tags: [frontend]}
          cron: {command: "true"}
        """,
    )
    code, answer = run_procler(project, "list", "--tag", "backend", "--tag", "frontend")
    assert (code, [(p["name"], p["tags"]) for p in answer["data"]["processes"]]) == (
        0,
        [("api", ["backend", "http"]), ("web", ["frontend"])],
    )
    code, answer = run_procler(project, "list", "--tag", "http", "--resolve")
    [api] = answer["data"]["processes"]
    assert (code, api["command"], api["stop_timeout"], api["healthcheck"]) == (
        0,
        "serve --port 8001",
        10.0,
        None,
    )


def test_logs_takes_f_for_follow() -> None:
    command, values = parse(with_builtins(APP), ["logs", "api", "-f", "--timeout", "1s"])
    assert command is not None
    assert (command.name, values["follow"], values["timeout"]) == ("logs", True, 1.0)
