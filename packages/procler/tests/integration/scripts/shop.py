"""The shop's programs (test_shop.py): shop.py ROLE ARGS.

- migrate DBPORT FILE: connects to the database once; refused: says so on stderr and exits 1;
  else appends a line to FILE (one line per migration run).
- api PORT: refuses to run without DATABASE_URL (stderr, exit 1); else listens on PORT.
- worker: prints "worker started", then works.
- web PORT: listens on PORT.
- cleanup: prints what it cleaned.
"""

import os
import socket
import sys
import time

ROLE = sys.argv[1]


def listen(port: int) -> None:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(16)
    print(f"listening on {server.getsockname()[1]}", flush=True)
    while True:
        server.accept()[0].close()


if ROLE == "migrate":
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=2).close()
    except OSError:
        print(f"could not connect to the database on port {sys.argv[2]}", file=sys.stderr)
        sys.exit(1)
    with open(sys.argv[3], "a") as out:
        out.write("migrated\n")
elif ROLE == "api":
    if "DATABASE_URL" not in os.environ:
        print("DATABASE_URL is not set", file=sys.stderr, flush=True)
        sys.exit(1)
    listen(int(sys.argv[2]))
elif ROLE == "worker":
    print("worker started", flush=True)
    time.sleep(600)
elif ROLE == "web":
    listen(int(sys.argv[2]))
elif ROLE == "cleanup":
    print("cleaned 0 sessions", flush=True)
