"""`procler serve` against a real supervisor: every route's envelope and status, the token,
Host and Origin refusals, read-only, the body cap, and the OpenAPI document's routes."""

from __future__ import annotations

import json
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.api_client import Listener, refusal, serve
from procler_testkit.harness import PY, Project, wait_for

from procler.supervisor.api.rest_resources import RESOURCES

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('api up', flush=True); time.sleep(600)"
  worker:
    command: {PY} -c "import time; time.sleep(600)"
groups:
  backend: {{processes: [api, worker]}}
"""
UNAUTHORIZED = refusal(
    "UNAUTHORIZED",
    "missing or wrong bearer token",
    "send `Authorization: Bearer TOKEN`, the token in the file `procler serve` names",
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    made = Project(tmp_path_factory.mktemp("rest") / "proj", CONFIG)
    try:
        made.ok("start", "api")
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module")
def api(project: Project) -> Listener:
    return serve(project, "--allow-host", "tunnel.example")


def ok(data: Any) -> dict[str, Any]:
    return {"schema_version": "1.0", "success": True, "data": data}


def test_serve_answers_where_the_token_is_never_the_token(project: Project, api: Listener) -> None:
    token_file = project.root / ".procler" / "state" / "api-token"
    assert api.about == {
        "listening": True,
        "url": f"http://127.0.0.1:{api.port}",
        "host": "127.0.0.1",
        "port": api.port,
        "read_only": False,
        "allowed_hosts": sorted(
            [f"{h}:{api.port}" for h in ("127.0.0.1", "localhost", "[::1]", "tunnel.example")]
            + ["tunnel.example"]
        ),
        "token_file": str(token_file),
        "token_allows": "everything the CLI does: reads, and every command that changes "
        "something (start, stop, restart, up, down, recipes, exec...); `procler serve "
        "--read-only` for reads only",
        "example": f'curl -H "Authorization: Bearer $(cat {token_file})" '
        f"http://127.0.0.1:{api.port}/v1/processes",
        "openapi": f"http://127.0.0.1:{api.port}/v1/openapi.json",
        "mcp": None,
        "dashboard": None,
    }
    # the example works as it is, in a shell
    tried = subprocess.run(
        api.about["example"], shell=True, capture_output=True, text=True, check=True, timeout=30
    )
    listed = json.loads(tried.stdout)
    assert (listed["success"], [p["name"] for p in listed["data"]["processes"]]) == (
        True,
        [p["name"] for p in project.ok("status")["processes"]],
    )
    assert len(api.token) == 64 and int(api.token, 16) >= 0  # 32 random bytes, hex
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
    again = project.ok("serve", "--port", str(api.port), "--allow-host", "tunnel.example")
    assert again == {**api.about, "already_listening": True}


def test_serve_refuses_a_remote_host_unless_allowed(project: Project) -> None:
    code, env = project.run("serve", "--host", "0.0.0.0")
    assert (code, env["error_code"], env["error"]) == (
        2,
        "USAGE",
        "0.0.0.0 is not a loopback address: other machines could reach the API",
    )


def test_health_needs_no_token_and_says_only_ok(api: Listener) -> None:
    assert api.get("/health", token=None) == (200, {"ok": True})
    assert api.get("/health", token="wrong") == (200, {"ok": True})


def test_a_missing_or_wrong_token_is_refused(api: Listener) -> None:
    for token in (None, "wrong", api.token[:-1]):
        status, headers, body = api.call("GET", "/v1/groups", token=token)
        assert (status, headers["www-authenticate"], body) == (
            401,
            'Bearer realm="procler"',
            UNAUTHORIZED,
        )
    groups = [{"name": "backend", "description": "", "processes": ["api", "worker"]}]
    assert api.get("/v1/groups") == (200, ok({"groups": groups}))


def test_forged_host_and_origin_are_refused_before_the_token(api: Listener) -> None:
    allowed = ", ".join(sorted(api.about["allowed_hosts"]))
    assert api.get("/v1/groups", token=None, headers={"Host": "evil.example"}) == (
        403,
        refusal(
            "FORBIDDEN",
            "Host evil.example is not an allowed host",
            f"call it as one of {allowed}, or serve with --allow-host NAME",
        ),
    )
    assert api.get("/health", headers={"Host": f"evil.example:{api.port}"})[0] == 403
    assert api.get("/v1/groups", headers={"Origin": "http://evil.example"}) == (
        403,
        refusal(
            "FORBIDDEN",
            "Origin http://evil.example is not an allowed origin",
            "only pages served from an allowed host may call the API",
        ),
    )
    for host in (f"localhost:{api.port}", "tunnel.example", f"[::1]:{api.port}"):
        origin = {"Host": host, "Origin": f"http://{host}"}
        assert api.get("/v1/groups", headers=origin)[0] == 200


def test_process_routes(api: Listener) -> None:
    status, body = api.get("/v1/processes")
    assert (status, [(p["name"], p["status"]) for p in body["data"]["processes"]]) == (
        200,
        [("api", "running"), ("worker", "stopped")],
    )
    status, body = api.get("/v1/processes/api")
    assert (status, body["data"]["name"], body["data"]["status"]) == (200, "api", "running")
    status, body = api.get("/v1/processes/api/logs?tail=1&stream=stdout&run=current")
    assert (status, [line["text"] for line in body["data"]["lines"]]) == (200, ["api up"])
    assert api.get("/v1/processes/a%2Fb") == (
        404,
        refusal(
            "PROCESS_NOT_FOUND",
            "no process named 'a/b'",
            "run `procler list` to see the defined processes",
        ),
    )
    assert api.get("/v1/processes/api/logs?follow=true") == (
        400,
        refusal(
            "USAGE",
            "unknown query parameter 'follow'",
            "valid: tail, since, until, grep, run, stream",
        ),
    )
    assert api.get("/v1/processes/api/logs?tail=many")[1]["error_code"] == "USAGE"


def test_config_and_capabilities_routes(project: Project, api: Listener) -> None:
    status, body = api.get("/v1/config/explain")
    assert (status, body["data"]["config"], body["data"]["start_order"]) == (
        200,
        str(project.root / ".procler" / "config.yaml"),
        [["api", "worker"]],
    )
    status, body = api.get("/v1/capabilities")
    assert (
        status,
        body["data"]["tool"],
        "serve" in [c["name"] for c in body["data"]["commands"]],
    ) == (
        200,
        "procler",
        True,
    )


def test_wrong_routes_and_methods(api: Listener) -> None:
    status, _headers, body = api.call("POST", "/v1/processes")
    assert (status, body) == (
        405,
        refusal(
            "METHOD_NOT_ALLOWED",
            "/v1/processes takes GET, not POST",
            "GET /v1/openapi.json lists the methods of every route",
        ),
    )
    for path in ("/v1/nothing", "/v1/argv", "/v1/commands/serve", "/v1/commands/mcp"):
        status, _headers, body = api.call("POST", path)
        assert (status, body["error_code"]) == (404, "ROUTE_NOT_FOUND"), path
    assert api.get("/v1/commands/status")[0] == 405


def test_commands_are_checked_by_the_parser_before_they_run(api: Listener) -> None:
    status, _h, body = api.call("POST", "/v1/commands/status", body={"values": {"name": "api"}})
    assert (status, body["data"]["status"]) == (200, "running")
    status, _h, body = api.call("POST", "/v1/commands/group/status", body={"values": {}})
    assert (status, body["error_code"]) == (400, "USAGE")
    status, _h, body = api.call("POST", "/v1/commands/stop", body={"values": {"force": True}})
    assert (status, body) == (
        400,
        refusal(
            "USAGE",
            "procler_stop: unknown argument(s): force",
            "valid arguments: name, all, with_dependents, kill",
        ),
    )
    status, _h, body = api.call("POST", "/v1/commands/status", raw=b"[1]")
    assert (status, body["error"]) == (400, "the request body is not a JSON object")


def test_a_body_over_one_mebibyte_is_refused(api: Listener) -> None:
    status, _h, body = api.call("POST", "/v1/commands/status", raw=b" " * (1024 * 1024 + 1))
    assert (status, body) == (
        413,
        refusal(
            "PAYLOAD_TOO_LARGE",
            "the request body is over 1048576 bytes",
            "send a request body of at most 1 MiB",
        ),
    )


def test_a_websocket_ticket_is_issued_to_a_token_holder(api: Listener) -> None:
    status, _h, body = api.call("POST", "/v1/ws-ticket")
    assert (status, sorted(body["data"]), body["data"]["expires_in_seconds"]) == (
        200,
        ["expires_in_seconds", "ticket"],
        30.0,
    )
    assert api.call("POST", "/v1/ws-ticket", token=None)[0] == 401


def test_the_openapi_document_lists_exactly_the_routes_served(api: Listener) -> None:
    status, doc = api.get("/v1/openapi.json")
    assert (status, doc["openapi"]) == (200, "3.1.0")
    routes = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    commands = {p for p, m in routes if p.startswith("/v1/commands/")}
    assert routes - {(p, "post") for p in commands} == {
        ("/health", "get"),
        ("/v1/openapi.json", "get"),
        ("/v1/ws-ticket", "post"),
        *((r.path, "get") for r in RESOURCES),
    }
    for path, method in sorted(routes):
        concrete = path.replace("{name}", "api")
        if method == "get":
            assert api.get(concrete)[0] == 200, path
        elif path in commands:  # an unknown argument: answered by the route, nothing runs
            status, _h, body = api.call("POST", concrete, body={"values": {"nope": 1}})
            assert (status, body["error"].split(":")[1]) == (400, " unknown argument(s)"), path


def test_a_read_only_listener_refuses_every_change(project: Project, api: Listener) -> None:
    listener = serve(project, "--read-only")
    try:
        assert listener.about["token_allows"] == (
            "read only: every read (GET routes: status, logs, history, config...) and the "
            "commands that change nothing; any other answers 403 FORBIDDEN"
        )
        status, _h, body = listener.call(
            "POST", "/v1/commands/stop", body={"values": {"name": "api"}}
        )
        assert (status, body) == (
            403,
            refusal(
                "FORBIDDEN",
                "POST /v1/commands/stop changes something or answers secrets; this listener "
                "is read-only",
                "only reads are allowed: serve without --read-only to change things",
            ),
        )
        status, _h, body = listener.call(
            "POST", "/v1/commands/why", body={"values": {"name": "api"}}
        )
        assert (status, body["data"]["why"].split(" ")[0]) == (200, "api")
        assert listener.get("/v1/processes/api")[1]["data"]["status"] == "running"
        assert listener.call("POST", "/v1/ws-ticket")[0] == 200
    finally:  # the module's listener back, as it was
        project.ok("serve", "--port", str(api.port), "--allow-host", "tunnel.example")


def test_a_config_the_file_breaks_answers_422(project: Project, api: Listener) -> None:
    config = project.root / ".procler" / "config.yaml"
    try:
        config.write_text("processes: [not, a, map]\n")
        status, body = api.get("/v1/config/explain")
        assert (status, body["error_code"]) == (422, "CONFIG_INVALID")
    finally:
        config.write_text(CONFIG)


def test_the_listener_outlives_a_daemon_restart_not_a_stop(tmp_path: Path) -> None:
    made = Project(tmp_path / "proj", CONFIG)
    try:
        listener = serve(made)
        made.ok("daemon", "restart")
        assert wait_for(lambda: listening(listener))  # the next supervisor listens again
        assert listener.get("/v1/groups")[0] == 200  # on the same port, with the same token
        assert made.ok("serve", "--stop") == {"listening": False, "stopped": True}
        assert listening(listener) is False
        assert made.ok("serve", "--stop") == {"listening": False, "stopped": False}
        serve(made, "--port", str(listener.port))
        settings = made.root / ".procler" / "state" / "serve.json"
        assert settings.exists()
        made.ok("daemon", "stop")  # like the processes: the next supervisor does not listen
        assert settings.exists() is False
    finally:
        made.close()


def listening(listener: Listener) -> bool:
    try:
        return listener.get("/health") == (200, {"ok": True})
    except ConnectionRefusedError:
        return False
