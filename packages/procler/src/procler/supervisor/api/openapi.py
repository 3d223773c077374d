"""The OpenAPI 3.1 document of the TCP listener, generated from the command declarations.

Each operation's parameters and request body are its command's arguments (the schemas MCP
tools use), its 200 answer the envelope with the command's output schema as data, and
its error statuses those of the errors the command declares, plus the listener's own
(401, 403, 408, 413). A test checks that the paths are exactly the routes served.
"""

from __future__ import annotations

from typing import Any

from agentcli.commands import App, Command, call_args
from agentcli.envelope import ENVELOPE_SCHEMA
from agentcli.tools import value_schema
from procler.supervisor.api.http_errors import (
    Forbidden,
    PayloadTooLarge,
    RequestTimeout,
    Unauthorized,
    status_of_code,
)
from procler.supervisor.api.rest_resources import HEALTH_ROUTE, OPENAPI_ROUTE, RESOURCES, Resource
from procler.supervisor.api.security import TICKET_ROUTE
from procler.surfaces.arguments import TOOLS
from procler.wire import command_path

ENVELOPE_REF = {"$ref": "#/components/schemas/Envelope"}
GUARD_ERRORS = (Unauthorized, Forbidden, RequestTimeout, PayloadTooLarge)
JSON = "application/json"


def _content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {JSON: {"schema": schema}}}


def _answer(data: dict[str, Any] | None) -> dict[str, Any]:
    schema = (
        ENVELOPE_REF if data is None else {"allOf": [ENVELOPE_REF, {"properties": {"data": data}}]}
    )
    return {"description": "the envelope", **_content(schema)}


def responses(cmd: Command | None, data: dict[str, Any] | None) -> dict[str, Any]:
    """200 with `data`, then one error status per declared error (and the guard's)."""
    errors = (*(cmd.all_errors() if cmd else ()), *GUARD_ERRORS)
    out: dict[str, Any] = {"200": _answer(data)}
    for err in errors:
        status = str(status_of_code(err.code, int(err.exit_code)))
        codes = out.setdefault(status, {"description": "", **_content(ENVELOPE_REF)})
        codes["description"] = ", ".join(filter(None, (codes["description"], err.code)))
    return dict(sorted(out.items()))


def resource_operation(res: Resource, cmd: Command) -> dict[str, Any]:
    args = {a.dest: a for a in call_args(cmd)}
    params = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
        for p in res.params
    ]
    for dest in res.query:
        schema = value_schema(args[dest])
        params.append(
            {
                "name": dest,
                "in": "query",
                "description": schema.pop("description"),
                "schema": schema,
            }
        )
    return {
        "operationId": res.operation,
        "summary": cmd.summary,
        "parameters": params,
        "responses": responses(cmd, {"type": "object", **dict(cmd.output)}),
    }


def command_operation(cmd: Command) -> dict[str, Any]:
    body = {
        "type": "object",
        "properties": {"values": TOOLS.input_schema(cmd)},
        "additionalProperties": False,
    }
    return {
        "operationId": "command_" + "_".join(cmd.words).replace("-", "_"),
        "summary": cmd.summary,
        "requestBody": {"required": False, **_content(body)},
        "responses": responses(cmd, {"type": "object", **dict(cmd.output)}),
    }


def openapi_document(app: App, commands: list[str]) -> dict[str, Any]:
    """The document of a listener serving `commands` (by name) of `app`."""
    paths: dict[str, Any] = {
        HEALTH_ROUTE: {
            "get": {
                "operationId": "health",
                "summary": "whether the supervisor answers (no token needed)",
                "security": [],
                "responses": {
                    "200": {
                        "description": 'always exactly {"ok": true}',
                        **_content(
                            {
                                "type": "object",
                                "properties": {"ok": {"const": True}},
                                "required": ["ok"],
                                "additionalProperties": False,
                            }
                        ),
                    },
                    "403": {"description": "FORBIDDEN", **_content(ENVELOPE_REF)},
                },
            }
        },
        OPENAPI_ROUTE: {
            "get": {
                "operationId": "openapi",
                "summary": "this document",
                "responses": {
                    **responses(None, None),
                    "200": {"description": "OpenAPI 3.1", **_content({"type": "object"})},
                },
            }
        },
        TICKET_ROUTE: {
            "post": {
                "operationId": "websocket_ticket",
                "summary": "a ticket for one WebSocket upgrade (?ticket=), valid once, briefly",
                "responses": responses(
                    None,
                    {
                        "type": "object",
                        "properties": {
                            "ticket": {"type": "string"},
                            "expires_in_seconds": {"type": "number"},
                        },
                    },
                ),
            }
        },
    }
    for res in RESOURCES:
        paths[res.path] = {"get": resource_operation(res, app.command(res.command))}
    for name in commands:
        paths[command_path(name)] = {"post": command_operation(app.command(name))}
    envelope = {k: v for k, v in ENVELOPE_SCHEMA.items() if k != "$schema"}
    return {
        "openapi": "3.1.0",
        "info": {"title": app.name, "version": app.version, "description": app.description},
        "paths": paths,
        "components": {
            "schemas": {"Envelope": envelope},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
