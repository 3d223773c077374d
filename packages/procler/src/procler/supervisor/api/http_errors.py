"""The one mapping from an envelope to an HTTP status, and the errors only HTTP answers.

Every HTTP answer of the supervisor (unix socket and TCP listener) takes its status from
`http_status`; the error code decides first, the exit code otherwise.
"""

from __future__ import annotations

from typing import Any

from agentcli import http_guard
from agentcli.errors import UsageError
from agentcli.http_guard import GUARD_STATUS, PayloadTooLarge, RequestTimeout

__all__ = ["PayloadTooLarge", "RequestTimeout"]  # every listener's, answered here too

BY_CODE = {
    **GUARD_STATUS,  # 401, 403, 408, 413
    "USAGE": 400,
    "METHOD_NOT_ALLOWED": 405,
    "CONFLICT": 409,
    "CONFIG_INVALID": 422,
    "INTERNAL": 500,
    "SUPERVISOR_UNAVAILABLE": 503,
}
BY_EXIT_CODE = {0: 200, 1: 409, 2: 400, 3: 500, 130: 503}


def status_of_code(code: str, exit_code: int) -> int:
    if code in BY_CODE:
        return BY_CODE[code]
    if code.endswith("_NOT_FOUND"):
        return 404
    return BY_EXIT_CODE.get(exit_code, 500)


def http_status(envelope: dict[str, Any], exit_code: int) -> int:
    """The HTTP status of an answer: its error code's, else its exit code's."""
    return status_of_code(str(envelope.get("error_code", "")), exit_code)


class RouteNotFound(http_guard.RouteNotFound):
    default_suggestion = "GET /v1/openapi.json lists every route"


class MethodNotAllowed(UsageError):
    code = "METHOD_NOT_ALLOWED"
    default_suggestion = "GET /v1/openapi.json lists the methods of every route"


class Unauthorized(http_guard.Unauthorized):
    default_suggestion = (
        "send `Authorization: Bearer TOKEN`, the token in the file `procler serve` names"
    )


class Forbidden(http_guard.Forbidden):
    default_suggestion = "see the allowed hosts and read_only in `procler serve`'s answer"
