"""A tool's command reference page (docs/reference/TOOL.md), derived from its declarations.

The page is the skill's command reference (agentcli.skills) read by a person: every command
with its options, the fields of its answer, its error codes; then every error code with its
exit code and suggestion, and the exit codes. Nothing in it is written per command, so it
cannot drift from what the parser accepts; `make docs` writes it and a test compares.
"""

from __future__ import annotations

from agentcli.commands import App
from agentcli.main import with_builtins
from agentcli.skills import arg_rows, command_section, error_rows, exit_code_rows


def render_reference(app: App) -> str:
    app = with_builtins(app)
    lines = [
        f"# {app.name} reference",
        "",
        f"Generated from {app.name}'s command declarations by `make docs`; a test fails when "
        f"it is stale. `{app.name} capabilities` gives the same as JSON, "
        f"`{app.name} COMMAND --help` one command.",
        "",
        app.description,
        "",
        "Every answer is a JSON envelope on stdout, `{schema_version, success, data, error, "
        "error_code, suggestion}` (a report command's answer is its findings report, a stream "
        "command's one JSON object per line); the fields listed under a command are those of "
        "`data`.",
        "",
        "## Exit codes",
        "",
        *exit_code_rows(),
        "",
    ]
    if app.global_args:
        lines += ["## Options before the command", "", *arg_rows(app.global_args), ""]
    lines += ["## Commands", ""]
    lines += [f"- [`{app.name} {c.name}`](#{_anchor(app.name, c.name)})" for c in app.commands]
    lines.append("")
    for cmd in app.commands:
        lines += command_section(app, cmd, answers=True)
    lines += ["## Error codes", "", *error_rows(app), ""]
    return "\n".join(lines)


def _anchor(tool: str, command: str) -> str:
    """The anchor GitHub gives the heading `## tool command`."""
    return f"{tool} {command}".lower().replace(" ", "-")
