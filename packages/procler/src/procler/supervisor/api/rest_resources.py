"""The TCP listener's routes that are not commands' own: their paths, and the resource
routes, each a read of a declared command (rest_routes serves them, openapi documents
them; a test checks them against the declarations)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from agentcli.commands import Command, call_args
from agentcli.errors import UsageError

HEALTH_ROUTE = "/health"
OPENAPI_ROUTE = "/v1/openapi.json"
MCP_ROUTE = "/mcp"


@dataclass(frozen=True)
class Resource:
    """GET `path`: the command `command` with the path's {params} as its positional
    arguments and the `query` options (by dest)."""

    path: str
    command: str
    operation: str
    query: tuple[str, ...] = ()

    @property
    def params(self) -> list[str]:
        return [part[1:-1] for part in self.path.split("/") if part.startswith("{")]

    def match(self, segments: list[str]) -> list[str] | None:
        """The path parameters' values when `segments` (decoded) are this path's."""
        template = self.path.split("/")
        if len(template) != len(segments):
            return None
        found = []
        for want, got in zip(template, segments, strict=True):
            if want.startswith("{"):
                if not got:
                    return None
                found.append(got)
            elif want != got:
                return None
        return found


RESOURCES = (
    Resource("/v1/processes", "status", "list_processes", query=("tag",)),
    Resource("/v1/processes/{name}", "status", "get_process"),
    Resource(
        "/v1/processes/{name}/logs",
        "logs",
        "get_process_logs",
        query=("tail", "since", "until", "grep", "run", "stream"),
    ),
    Resource("/v1/processes/{name}/history", "history", "get_process_history", query=("limit",)),
    Resource("/v1/groups", "group list", "list_groups"),
    Resource("/v1/config/explain", "config explain", "explain_config"),
    Resource("/v1/capabilities", "capabilities", "get_capabilities"),
)


def query_argv(cmd: Command, resource: Resource, query: bytes, params: list[str]) -> list[str]:
    """The argv a resource request stands for (the parser then checks every value)."""
    args = {a.dest: a for a in call_args(cmd)}
    argv = list(cmd.words)
    for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if key not in resource.query:
            raise UsageError(
                f"unknown query parameter {key!r}",
                suggestion="valid: " + (", ".join(resource.query) or "none"),
            )
        arg = args[key]
        if arg.type != "boolean":
            argv.append(f"{arg.name}={value}")
        elif value not in ("true", "false"):
            raise UsageError(f"{key} must be true or false, got {value!r}")
        elif value == "true":
            argv.append(arg.name)
    return [*argv, "--", *params]
