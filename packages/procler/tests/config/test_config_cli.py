"""The config commands end to end, through the real CLI in a subprocess."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import run_procler, write_config

INVALID = """
processes:
  web:
    comand: serve
"""


def test_validate_valid_config_exits_0_with_a_summary(project: Path) -> None:
    write_config(project, "processes:\n  web: {command: serve}\n  db: {command: db}\n")
    code, env = run_procler(project, "config", "validate")
    assert code == 0
    assert env["data"]["summary"] == "2 processes, 0 groups, no errors"
    assert env["data"]["valid"] is True


def test_validate_and_every_other_command_answer_an_invalid_config_with_one_code(
    project: Path,
) -> None:
    path = write_config(project, INVALID)
    code, env = run_procler(project, "config", "validate")
    assert code == 2
    assert env["success"] is False
    assert env["error_code"] == "CONFIG_INVALID"
    assert env["error"] == (
        f"the config has 2 errors; first: {path}:3:5: processes.web.comand: unknown key 'comand'"
    )
    assert env["data"]["valid"] is False
    errors = env["data"]["errors"]
    assert [(e["file"], e["line"], e["column"], e["path"]) for e in errors] == [
        (str(path), 3, 5, "processes.web.comand"),
        (str(path), 3, 5, "processes.web"),
    ]
    for command in (
        ["list"],
        ["config", "show"],
        ["config", "explain"],
        ["remove", "x"],
        ["reload"],
        ["up"],
    ):
        code, env = run_procler(project, *command)
        assert code == 2
        assert env["error_code"] == "CONFIG_INVALID"
        assert env["data"]["errors"] == errors
        assert env["error"] == (
            f"the config has 2 errors; first: {path}:3:5: processes.web.comand: unknown key 'comand'"
        )


def test_define_list_remove_through_the_cli(project: Path) -> None:
    write_config(project, "processes:\n  web: {command: serve}\n")
    (project / "logs").mkdir()
    args = ["define", "tail", "--command", "tail -f app.log", "--cwd", "logs", "--env", "A=1"]
    code, env = run_procler(project, *args)
    assert code == 0
    assert env["data"]["changed"] is True
    assert env["data"]["process"]["cwd"] == str(project / "logs")
    assert env["data"]["process"]["env"] == {"A": "1"}
    assert env["data"]["process"]["source"] == "runtime"
    code, env = run_procler(project / "logs", *args[:4], "--cwd", ".", "--env", "A=1")
    assert code == 0  # --cwd is relative to the caller's directory: the same definition
    assert env["data"]["changed"] is False
    code, env = run_procler(project, "define", "tail", "--command", "tail -f other.log")
    assert (code, env["error_code"]) == (2, "CONFLICT")
    code, env = run_procler(project, "define", "web", "--command", "x")
    assert (code, env["error_code"], env["suggestion"]) == (
        2,
        "CONFLICT",
        "edit processes.web in the config file instead",
    )
    code, env = run_procler(project, "list")
    assert code == 0
    assert [(p["name"], p["source"], p["command"]) for p in env["data"]["processes"]] == [
        ("web", "config", "serve"),
        ("tail", "runtime", "tail -f app.log"),
    ]
    assert run_procler(project, "remove", "tail") == (
        0,
        {"schema_version": "1.0", "success": True, "data": {"name": "tail", "changed": True}},
    )
    assert run_procler(project, "remove", "tail")[1]["data"] == {"name": "tail", "changed": False}


def test_define_rejects_a_bad_name(project: Path) -> None:
    write_config(project, "processes: {}\n")
    code, env = run_procler(project, "define", "bad name", "--command", "x")
    assert (code, env["error_code"]) == (2, "USAGE")


def test_define_needs_a_command_unless_docker_and_one_docker_target(project: Path) -> None:
    write_config(project, "processes: {}\n")
    code, env = run_procler(project, "define", "x")
    assert (code, env["error_code"], env["error"]) == (2, "USAGE", "x needs a command")
    code, env = run_procler(project, "define", "x", "--image", "a", "--container", "b")
    assert (code, env["error"]) == (2, "--image and --container exclude each other")
    code, env = run_procler(project, "define", "cache", "--image", "redis:7")
    process = env["data"]["process"]
    assert (code, process["context"], process["command"], process["source"]) == (
        0,
        "docker",
        None,
        "runtime",
    )


def test_show_answers_the_resolved_config(project: Path) -> None:
    write_config(
        project,
        "vars: {P: '9000'}\nprocesses:\n  web: {command: 'serve ${P}', cwd: www, stop_timeout: 2s}\n",
    )
    code, env = run_procler(project, "config", "show")
    assert code == 0
    web = env["data"]["processes"]["web"]
    assert (web["command"], web["cwd"], web["stop_timeout"], web["source"]) == (
        "serve 9000",
        str(project / "www"),
        2.0,
        "config",
    )
    assert env["data"]["vars"] == {"P": "9000"}
    assert env["data"]["logs"] == {"max_size": 10485760, "max_files": 5}


def test_explain_through_the_cli(project: Path) -> None:
    write_config(project, "processes:\n  web: {command: serve}\n")
    code, env = run_procler(project, "config", "explain")
    assert code == 0
    assert env["data"]["paragraph"] == (
        "This project defines 1 process and 0 groups. web runs `serve` in the project root; "
        "it is restarted when it exits with a code other than 0 (at most 5 times, counted "
        "afresh after 1m up): at once if the run had been up 10s, else after 1s, doubling up "
        "to 30s; a run started by a command that ends within 150ms is failed, not restarted. "
        "Start order: web."
    )


def test_capabilities_describe_the_config_commands(project: Path) -> None:
    code, env = run_procler(project, "capabilities")
    assert code == 0
    by_name = {c["name"]: c for c in env["data"]["commands"]}
    for name in ("config init", "config validate", "config explain", "config show", "list"):
        assert by_name[name]["mode"] == "envelope"
    assert by_name["define"]["idempotent"] is True
    assert by_name["remove"]["destructive"] is True
    assert "CONFLICT" in by_name["define"]["errors"]
    assert [a["name"] for a in by_name["define"]["arguments"]] == [
        "name",
        "command",
        "cwd",
        "env",
        "context",
        "image",
        "container",
        "force",
    ]
