"""A tiny HTTP server for health-check tests: server.py PORT [DELAY_SECONDS] [STATUS]."""

import http.server
import sys
import time

PORT = int(sys.argv[1])
DELAY = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
STATUS = int(sys.argv[3]) if len(sys.argv) > 3 else 200


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(STATUS)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


time.sleep(DELAY)
server = http.server.HTTPServer(("127.0.0.1", PORT), Handler)
print(f"listening on {PORT}", flush=True)
server.serve_forever()
