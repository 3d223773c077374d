"""The generic MCP server over the SDK's in-memory client: tools from declarations, the
answers (data, a report, an error), and a command whose real run needs its dry run first."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from agentcli_testkit.putter_app import PUTTER, WRITES
from agentcli_testkit.sample_app import APP as SAMPLE
from mcp import Client

from agentcli.commands import App, Command
from agentcli.mcp_server import Entry, build_server, command_entries
from agentcli.report import report_schema
from agentcli.tools import Envelope, ToolSet


def entries(app: App, root: str | None = None) -> dict[str, Entry]:
    """The CLI's call in a worker thread, confined to `root` when given."""
    tools = ToolSet(app, app.name + "_")

    async def call(cmd: Command, arguments: dict[str, Any]) -> Envelope:
        if root is None:
            return await anyio.to_thread.run_sync(tools.call, cmd, arguments)
        return await anyio.to_thread.run_sync(tools.call_within, root, cmd, arguments)

    def resolve(cmd: Command, arguments: dict[str, Any]) -> dict[str, Any]:
        return arguments if root is None else tools.rooted(cmd, arguments, root)

    return command_entries(tools, call, resolve=resolve)


def session(
    app: App, calls: list[tuple[str, dict[str, Any]]], root: str | None = None
) -> tuple[dict[str, types.Tool], list[types.CallToolResult]]:
    server = build_server("t", "1.0", "test", entries(app, root))

    async def go() -> tuple[dict[str, types.Tool], list[types.CallToolResult]]:
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            return tools, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def exit_code(answer: types.CallToolResult) -> object:
    """The CLI's exit code, which the server gives in each answer's _meta."""
    assert answer.meta is not None
    return answer.meta["exit_code"]


def test_the_tools_and_their_answers() -> None:
    tools, (greet, check, wait, unknown) = session(
        SAMPLE,
        [
            ("sample_greet", {"name": "bob"}),
            ("sample_check", {"data": "x.csv"}),
            ("sample_job_wait", {}),
            ("sample_nope", {}),
        ],
    )
    assert "sample_capabilities" not in tools
    assert tools["sample_check"].output_schema == report_schema()
    greet_hints = tools["sample_greet"].annotations
    assert greet_hints is not None and greet_hints.idempotent_hint is True
    assert (greet.is_error, greet.structured_content) == (
        False,
        {"greeting": "hello bob", "times": 1},
    )
    assert exit_code(greet) == 0
    # a report with findings is the answer, not an error; the exit code says there are some
    assert (check.is_error, exit_code(check)) == (False, 1)
    assert check.structured_content["findings"][0]["rule_id"] == "R-1"
    assert (wait.is_error, wait.structured_content["error_code"], exit_code(wait)) == (
        True, "CONDITION_NOT_MET", 1
    )  # fmt: skip
    assert unknown.structured_content["error_code"] == "USAGE"


def test_the_real_run_comes_after_its_dry_run(tmp_path: Path) -> None:
    rules = tmp_path / "rules.csv"
    rules.write_text("find,replace\na,b\n")
    WRITES.clear()
    tools, answers = session(
        PUTTER,
        [
            ("putter_put", {"rules": "rules.csv"}),  # no dry run yet
            ("putter_put", {"rules": "rules.csv", "dry_run": True}),
            ("putter_put", {"rules": "rules.csv", "out_dir": "elsewhere", "force": True}),
            ("putter_put", {"rules": "other.csv"}),  # other arguments: their own dry run
            ("putter_put", {"rules": "other.csv", "confirm": True}),  # the user said so
        ],
        root=os.path.realpath(tmp_path),
    )
    assert tools["putter_put"].input_schema["properties"]["confirm"]["type"] == "boolean"
    codes = [a.structured_content.get("error_code") for a in answers]
    assert codes == ["DRY_RUN_REQUIRED", None, None, "DRY_RUN_REQUIRED", None]
    assert [(w["dry_run"], Path(w["out_dir"]).name) for w in WRITES] == [
        (True, "out"),
        (False, "elsewhere"),
        (False, "out"),
    ]


def test_a_rules_file_changed_after_its_dry_run_needs_a_new_one(tmp_path: Path) -> None:
    rules = tmp_path / "rules.csv"
    rules.write_text("find,replace\na,b\n")
    gated = entries(PUTTER, os.path.realpath(tmp_path))["putter_put"].run

    def run(arguments: dict[str, Any], session: str) -> dict[str, Any]:
        return anyio.run(gated, arguments, session)[0]

    assert "error_code" not in run({"rules": "rules.csv", "dry_run": True}, "s1")
    rules.write_text("find,replace\na,c\n")
    assert run({"rules": "rules.csv"}, "s1")["error_code"] == "DRY_RUN_REQUIRED"
    assert "error_code" not in run({"rules": "rules.csv", "dry_run": True}, "s1")
    assert run({"rules": "rules.csv"}, "s2")["error_code"] == "DRY_RUN_REQUIRED"  # other session
    assert "error_code" not in run({"rules": "rules.csv"}, "s1")
    outside = run({"rules": "/etc/passwd", "dry_run": True}, "s1")
    assert outside["error_code"] == "PATH_OUTSIDE_ROOT"
