"""A tiny JSON API on 127.0.0.1: /health and /items."""

import http.server
import json
import pathlib
import sys

PORT = int(sys.argv[1])
DATA = pathlib.Path(__file__).parent / "data.json"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/health":
            body = b'{"ok": true}'
        elif self.path == "/items":
            body = DATA.read_bytes()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        print(f"api: {self.command} {self.path}", flush=True)


print(f"api listening on 127.0.0.1:{PORT}", flush=True)
http.server.HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
