"""A tool whose one command writes files and is declared dry_run_first (MCP tests)."""

from __future__ import annotations

from typing import Any

from agentcli.commands import App, Arg, Command

WRITES: list[dict[str, Any]] = []


def put(values: dict[str, Any], command: Command) -> dict[str, Any]:
    WRITES.append(values)
    return {"dry_run": values["dry_run"], "rules": values["rules"]}


PUTTER = App(
    "putter",
    "1.0",
    "Puts.",
    (
        Command(
            "put",
            "copy with rules",
            "agentcli_testkit.putter_app:put",
            args=(
                Arg("rules", "rules file", type="path", required=True),
                Arg("--out-dir", "where", type="path", default="out"),
                Arg("--dry-run", "say only", type="boolean"),
                Arg("--force", "replace", type="boolean"),
            ),
            dry_run_first=True,
        ),
    ),
)
