"""office-tools' command declarations: the single source for the CLI and `capabilities`."""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.confine import OutsideRootError
from agentcli.http_guard import PortInUse
from agentcli.skill_command import install_command
from officecli import __version__

_H = "officecli.office_tools."

INSTALL = install_command(
    "office-tools",
    "the skills of doc2md, fieldcheck, design-diff and office-replace",
    _H + "skills:install",
    extra=(
        Arg(
            "--prompts",
            "also write the Copilot prompt files (summarise documents, check data, design "
            "changes, rename everywhere; English and Japanese) into the project's .github/prompts",
            type="boolean",
        ),
    ),
)

MCP = Command(
    "mcp",
    "serve doc2md, fieldcheck, design-diff and office-replace as MCP tools, over stdio (until "
    "stdin closes) or Streamable HTTP on 127.0.0.1; paths are confined to --root",
    _H + "mcp:serve",
    mode="stream",
    args=(
        Arg("--root", "the only folder the tools read and write (default: the current one)", type="path"),
        Arg("--http", "serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio", type="boolean"),
        Arg("--port", "with --http: the port (0: any free one)", type="integer", default=7766),
        Arg("--token-file", "with --http: the bearer token's file (made 0600 if absent; default: "
            "~/.local/state/office-tools/mcp-token)", type="path"),
    ),
    examples=(
        "office-tools mcp",
        "office-tools mcp --root ~/documents",
        "office-tools mcp --http --port 7766",
    ),
    errors=(OutsideRootError, PortInUse),
    output={
        "type": "object",
        "description": "stdio: none (stdout carries MCP messages); --http: one line once "
        "listening (url, mcp, root, token_file), nothing after",
    },
)  # fmt: skip

APP = App(
    name="office-tools",
    version=__version__,
    description="Agent Skills, Copilot prompt files and an MCP server for doc2md, fieldcheck, "
    "design-diff and office-replace.",
    commands=(INSTALL, MCP),
)
