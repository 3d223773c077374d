"""`exec` and `snippet run` in process, over the fakes: the command line a snippet's
typed arguments make, what is refused before anything runs, a failure's code and data,
what a one-off runs with (its cwd, the config's vars); and what the sentinel is told of a
real one. Real processes (the shell's quoting, timeouts, what cannot start) are in the
real-process tier."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Commands, Faked, faked, supervise
from procler_testkit.scripted import Ran, ScriptedContext, refusal

CONFIG = """
version: 1
vars: {REGION: eu-west}
processes:
  idle:
    command: serve
snippets:
  greet:
    command: "echo @{name} @{count} @{loud} @{mode:fast} \\\\@{literal}"
    tags: [demo]
    args:
      count: {type: integer, default: "1"}
      loud: {type: boolean, default: "no"}
      mode: {choices: [fast, slow]}
  fail:
    command: "./fail"
  reset:
    command: "echo reset"
    confirm: true
"""
GREETED = "echo 'x; rm -rf /' 3 false fast @{literal}"
SCRIPT = {
    GREETED: Ran(("x; rm -rf / 3 false fast @{literal}",)),
    "./fail": Ran(("bad",), exit_code=5),
    "echo reset": Ran(("reset",)),
    "./report": Ran(("eu-west",), stderr=("warn",)),
    "./migrate": Ran(("no table",), exit_code=4),
}


def context() -> ScriptedContext:
    return ScriptedContext(SCRIPT)


def test_typed_arguments_make_one_word_each(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        data = await f.commands.snippet_run(
            {"name": "greet", "arg": [("name", "x; rm -rf /"), ("count", "3")]}
        )
        assert data["command"] == GREETED
        assert (data["snippet"], data["exit_code"], data["timed_out"], data["stdout"]) == (
            "greet",
            0,
            False,
            "x; rm -rf / 3 false fast @{literal}\n",
        )
        assert f.context.commands == [GREETED]

    faked(tmp_path, CONFIG, scenario, context())


def test_bad_arguments_are_usage_errors_and_run_nothing(tmp_path: Path) -> None:
    cases = {
        (("name", "a"), ("count", "3; id")): "count must be an integer, not '3; id'",
        (("name", "a"), ("mode", "medium")): "mode must be one of fast, slow, not 'medium'",
        (("count", "2"),): "argument name is required (--arg name=VALUE)",
        (("name", "a"), ("colour", "red")): (
            "unknown argument 'colour'; the snippet takes: count, loud, mode, name"
        ),
    }

    async def scenario(f: Faked[ScriptedContext]) -> None:
        for args, error in cases.items():
            err = await refusal(f.commands.snippet_run({"name": "greet", "arg": list(args)}))
            assert (err.code, err.exit_code, err.message) == (
                "INVALID_ARGUMENT",
                2,
                f"snippet greet: {error}",
            )
        assert f.context.commands == []

    faked(tmp_path, CONFIG, scenario, context())


def test_a_failing_snippet_is_command_failed(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.snippet_run({"name": "fail"}))
        assert (err.code, err.exit_code, err.message) == (
            "COMMAND_FAILED",
            1,
            "`./fail` exited with 5",
        )
        assert (err.data["exit_code"], err.data["stdout"]) == (5, "bad\n")

    faked(tmp_path, CONFIG, scenario, context())


def test_confirm_needs_yes(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.snippet_run({"name": "reset"}))
        assert (err.code, err.exit_code, err.data) == (
            "CONFIRMATION_REQUIRED",
            2,
            {"snippet": "reset", "command": "echo reset"},
        )
        assert f.context.commands == []
        assert (await f.commands.snippet_run({"name": "reset", "yes": True}))["stdout"] == (
            "reset\n"
        )
        assert f.context.commands == ["echo reset"]

    faked(tmp_path, CONFIG, scenario, context())


def test_list_by_tag_and_show(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        listed = (await f.commands.snippet_list({"tag": ["demo"]}))["snippets"]
        assert [(s["name"], s["source"]) for s in listed] == [("greet", "config")]
        shown = await f.commands.snippet_show({"name": "greet"})
        assert [(a["name"], a["type"], a["default"], a["required"]) for a in shown["args"]] == [
            ("count", "integer", "1", False),
            ("loud", "boolean", "no", False),
            ("mode", "string", "fast", False),
            ("name", "string", None, True),
        ]
        err = await refusal(f.commands.snippet_show({"name": "gret"}))
        assert (err.code, err.exit_code) == ("SNIPPET_NOT_FOUND", 2)

    faked(tmp_path, CONFIG, scenario, context())


def test_exec_runs_in_the_projects_environment_and_answers_its_output(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        data = await f.commands.exec({"cmd": "./report", "cwd": "sub"})
        assert (data["command"], data["exit_code"], data["stdout"], data["stderr"]) == (
            "./report",
            0,
            "eu-west\n",
            "warn\n",
        )
        assert (data["context"], data["truncated"], data["timed_out"], data["signal"]) == (
            "local",
            False,
            False,
            None,
        )
        [(spec, env)] = f.context.specs
        assert (spec.cwd, dict(spec.env)["REGION"], env["REGION"]) == (
            str(tmp_path / "proj" / "sub"),
            "eu-west",
            "eu-west",
        )

    faked(tmp_path, CONFIG, scenario, context())


def test_a_failing_command_is_command_failed_with_its_output(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.exec({"cmd": "./migrate"}))
        assert (err.code, err.exit_code, err.message) == (
            "COMMAND_FAILED",
            1,
            "`./migrate` exited with 4",
        )
        assert (err.data["exit_code"], err.data["stdout"]) == (4, "no table\n")

    faked(tmp_path, CONFIG, scenario, context())


def test_a_container_context_needs_a_container(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        for where in ("docker", "podman"):
            err = await refusal(f.commands.exec({"cmd": "true", "context": where}))
            assert (err.code, err.exit_code, err.message) == (
                "USAGE",
                2,
                f"--context {where} needs --container NAME",
            )
        assert f.context.commands == []

    faked(tmp_path, CONFIG, scenario, context())


SENTINEL_CONFIG = 'version: 1\nprocesses:\n  idle:\n    args: [python3, -c, "pass"]\n'


def test_the_sentinel_is_told_of_the_command_by_its_run_id(tmp_path: Path) -> None:
    async def scenario(handlers: Commands) -> None:
        assert (await handlers.exec({"cmd": "true"}))["exit_code"] == 0

    told, ended = supervise(tmp_path, SENTINEL_CONFIG, scenario)
    run_id, pgid = told[1:].split(" ")
    # what the sentinel sweeps if this supervisor dies: the run's group and its PROCLER_RUN_ID
    assert (told[0], run_id.split(".")[:2], pgid.isdigit(), ended) == (
        "+",
        ["exec", "1"],
        True,
        f"-{run_id}",
    )
