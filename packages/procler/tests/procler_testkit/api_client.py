"""A plain HTTP client for the TCP listener's tests: any Host, any header, exact answers."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from procler_testkit.harness import Project


@dataclass
class Listener:
    port: int
    token: str
    about: dict[str, Any]

    def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = "",
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """(status, headers, JSON body); token "" means the right one, None none."""
        status, got, text = self.exchange(
            method, path, token=token, body=body, raw=raw, headers=headers
        )
        return status, got, json.loads(text)

    def exchange(
        self,
        method: str,
        path: str,
        *,
        token: str | None = "",
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body bytes) of one request (see call)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": f"127.0.0.1:{self.port}"}
        if token is not None:
            sent["Authorization"] = f"Bearer {token or self.token}"
        sent.update(headers or {})
        data = raw if raw is not None else b"" if body is None else json.dumps(body).encode()
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for key, value in sent.items():
                conn.putheader(key, value)
            conn.putheader("Content-Length", str(len(data)))
            conn.endheaders(data)
            resp = conn.getresponse()
            text = resp.read()
        finally:
            conn.close()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, text

    def get(self, path: str, **kwargs: Any) -> tuple[int, Any]:
        status, _headers, body = self.call("GET", path, **kwargs)
        return status, body


def serve(project: Project, *args: str) -> Listener:
    about = project.ok("serve", *(() if "--port" in args else ("--port", "0")), *args)
    return Listener(about["port"], Path(about["token_file"]).read_text().strip(), about)


def refusal(code: str, error: str, suggestion: str) -> dict[str, Any]:
    return {
        "schema_version": "1.0",
        "success": False,
        "error": error,
        "error_code": code,
        "suggestion": suggestion,
    }
