"""The MCP tools derived from the declarations: no drift, annotations per tool, arguments."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from agentcli.errors import UsageError
from agentcli.main import with_builtins
from procler.declarations import APP
from procler.surfaces.arguments import NOT_TOOLS, TOOLS, config_argv
from procler.surfaces.mcp_server import procler_server, runners

# (read_only, destructive, idempotent) per tool; open_world is False for every one.
ANNOTATIONS = {
    "procler_config_init": (False, False, False),
    "procler_config_validate": (True, False, True),
    "procler_config_explain": (True, False, True),
    "procler_config_show": (True, False, True),
    "procler_define": (False, False, True),
    "procler_remove": (False, True, True),
    "procler_list": (True, False, True),
    "procler_help_llm": (True, False, True),
    "procler_config_path": (True, False, True),
    "procler_start": (False, False, True),
    "procler_stop": (False, True, True),
    "procler_restart": (False, False, False),
    "procler_run": (False, False, True),
    "procler_status": (True, False, True),
    "procler_wait": (True, False, True),
    "procler_up": (False, False, True),
    "procler_ci": (False, False, False),
    "procler_why": (True, False, True),
    "procler_send": (False, False, False),
    "procler_history": (True, False, True),
    "procler_down": (False, True, True),
    "procler_schedule_list": (True, False, True),
    "procler_schedule_run_now": (False, False, False),
    "procler_schedule_pause": (False, False, True),
    "procler_schedule_resume": (False, False, True),
    "procler_group_start": (False, False, True),
    "procler_group_stop": (False, True, True),
    "procler_group_status": (True, False, True),
    "procler_scale": (False, True, True),
    "procler_namespace_list": (True, False, True),
    "procler_namespace_start": (False, False, True),
    "procler_namespace_stop": (False, True, True),
    "procler_namespace_restart": (False, False, False),
    "procler_exec": (False, True, False),
    "procler_group_list": (True, False, True),
    "procler_recipe_list": (True, False, True),
    "procler_recipe_show": (True, False, True),
    "procler_recipe_run": (False, True, False),
    "procler_recipe_resume": (False, True, False),
    "procler_recipe_cancel": (False, True, False),
    "procler_recipe_runs": (True, False, True),
    "procler_recipe_status": (True, False, True),
    "procler_snippet_list": (True, False, True),
    "procler_snippet_show": (True, False, True),
    "procler_snippet_run": (False, True, False),
    "procler_snippet_save": (False, False, True),
    "procler_snippet_remove": (False, True, True),
    "procler_logs": (True, False, True),
    "procler_events": (True, False, True),
    "procler_reload": (False, False, True),
    "procler_daemon_status": (True, False, True),
    "procler_daemon_stop": (False, True, True),
    "procler_daemon_restart": (False, False, False),
    "procler_daemon_logs": (True, False, True),
    "procler_serve": (False, False, True),
    "procler_dashboard": (False, False, False),
    "procler_config_schema": (False, False, True),
    "procler_export_compose": (False, False, True),
    "procler_export_systemd": (False, False, True),
    "procler_export_kubernetes": (False, False, True),
    "procler_import_procfile": (False, False, False),
    "procler_import_compose": (False, False, False),
    "procler_import_process_compose": (False, False, False),
    "procler_import_procler03": (False, False, False),
    "procler_wait_ready": (True, False, True),
}


def listed() -> list[types.Tool]:
    async def go() -> list[types.Tool]:
        async with Client(procler_server(runners(None))) as client:
            return (await client.list_tools()).tools

    return anyio.run(go)


def test_the_tools_are_the_cli_commands_minus_mcp_capabilities_tui_and_skills() -> None:
    names = [t.name for t in listed()]
    not_tools = {"mcp", "capabilities", "tui", "skills install"}
    commands = [c for c in with_builtins(APP).commands if c.name not in not_tools]
    assert names == [TOOLS.name(c) for c in commands] + ["procler_wait_ready"]
    assert not_tools == NOT_TOOLS
    assert {c.name for c in with_builtins(APP).commands} >= NOT_TOOLS


def hints(tool: types.Tool) -> tuple[bool | None, ...]:
    assert tool.annotations is not None, tool.name  # each tool has its hints
    given = tool.annotations
    return (
        given.read_only_hint,
        given.destructive_hint,
        given.idempotent_hint,
        given.open_world_hint,
    )


def test_annotations_per_tool() -> None:
    got = {t.name: hints(t) for t in listed()}
    assert got == {name: (*hints, False) for name, hints in ANNOTATIONS.items()}


def test_schemas_come_from_the_declarations() -> None:
    by_name = {t.name: t for t in listed()}
    logs = by_name["procler_logs"]
    assert sorted(logs.input_schema["properties"]) == sorted(
        [
            "name",
            "all",
            "group",
            "recipe",
            "tail",
            "after",
            "since",
            "until",
            "stream",
            "grep",
            "run",
            "timeout",
        ]
    )
    assert logs.input_schema["properties"]["stream"] == {
        "type": "string",
        "enum": ["stdout", "stderr"],
        "description": "only this stream",
    }
    assert logs.input_schema["properties"]["tail"]["default"] == 100
    run = by_name["procler_run"].input_schema
    assert run["required"] == ["name"]
    assert run["properties"]["cmd"]["type"] == "array"
    assert run["properties"]["env"]["items"] == {"type": "string"}
    assert run["additionalProperties"] is False
    assert by_name["procler_why"].output_schema == {"type": "object", **APP.command("why").output}
    described = by_name["procler_start"].description
    assert described is not None and described.startswith(APP.command("start").summary)


def test_arguments_become_the_cli_argv() -> None:
    run = APP.command("run")
    argv = TOOLS.to_argv(
        run, {"name": "web", "env": ["A=1"], "cmd": ["sleep", "9"]}, config_argv("/p/c.yaml")
    )
    assert argv == ["--config=/p/c.yaml", "run", "--env=A=1", "web", "--", "sleep", "9"]
    logs = APP.command("logs")
    assert TOOLS.to_argv(logs, {"name": "--all", "tail": 5, "all": False}) == [
        "logs",
        "--tail=5",
        "--",
        "--all",
    ]


@pytest.mark.parametrize(
    ("command", "arguments", "message"),
    [
        ("status", {"nope": 1}, "procler_status: unknown argument(s): nope"),
        ("start", {"all": "yes"}, "procler_start: all must be of type boolean, got 'yes'"),
        ("run", {"name": "-x", "cmd": ["true"]}, "procler_run: a name cannot start with '-': '-x'"),
        ("logs", {"tail": [1]}, "procler_logs: tail must be of type integer, got [1]"),
    ],
)
def test_bad_arguments_are_usage_errors(
    command: str, arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        TOOLS.to_argv(APP.command(command), arguments)
    assert caught.value.message == message
