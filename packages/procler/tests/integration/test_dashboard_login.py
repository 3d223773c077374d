"""The dashboard's way in over a real listener: a login URL works once, pages need the
session, a change made with the session cookie needs its CSRF token."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from procler_testkit.harness import PY, Project

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    made = Project(tmp_path / "proj", CONFIG)
    try:
        yield made
    finally:
        made.close()


def request(
    port: int, method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(
            method, target, body=body, headers={"Host": f"127.0.0.1:{port}", **(headers or {})}
        )
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def test_login_once_then_session_and_csrf(project: Project) -> None:
    login = project.ok("dashboard", "--port", "0")
    url = urlsplit(login["url"])
    port = url.port
    assert port is not None
    assert (url.path, login["dashboard"]) == ("/login", f"http://127.0.0.1:{port}/dashboard/")

    status, headers, _ = request(port, "GET", "/dashboard/")  # no session yet
    assert (status, headers["location"]) == (303, "/login")
    status, _, page = request(port, "GET", "/login")
    assert status == 401
    assert b"Run <code>procler dashboard</code>" in page

    status, headers, _ = request(port, "GET", f"{url.path}?{url.query}")
    assert (status, headers["location"]) == (303, "/dashboard/")
    cookie = headers["set-cookie"]
    assert re.fullmatch(
        r"procler_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200", cookie
    )
    status, _, page = request(port, "GET", f"{url.path}?{url.query}")  # the same URL again
    assert status == 401
    assert b"used already or has expired" in page

    session = {"Cookie": cookie.split(";")[0]}
    status, headers, page = request(port, "GET", "/dashboard/", session)
    assert status == 200
    assert headers["content-security-policy"] == "default-src 'self'; frame-ancestors 'none'"
    csrf = re.search(rb'<meta name="procler-csrf" content="([\w-]+)">', page)
    assert csrf is not None
    status, _, body = request(port, "GET", "/v1/processes", session)  # a read: the cookie does
    assert (status, [p["name"] for p in json.loads(body)["data"]["processes"]]) == (200, ["api"])

    start = b'{"values": {"name": "api"}}'
    status, _, body = request(port, "POST", "/v1/commands/start", session, start)
    assert (status, json.loads(body)["error_code"]) == (403, "FORBIDDEN")
    assert project.ok("status", "api")["status"] == "stopped"
    with_token = {**session, "X-Procler-CSRF": csrf.group(1).decode()}
    status, _, body = request(port, "POST", "/v1/commands/start", with_token, start)
    assert (status, json.loads(body)["data"]["status"]) == (200, "running")

    status, _, _ = request(port, "GET", "/dashboard/static/app.js", session)
    assert status == 200
    status, _, _ = request(port, "GET", "/dashboard/static/../../api-token", session)
    assert status == 404
