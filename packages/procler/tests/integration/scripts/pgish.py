"""A server that stops as PostgreSQL does: pgish.py PORT DIR [LISTEN_DELAY].

- start: refuses (exit 1) while DIR/server.pid names a live process, as the postmaster
  does with postmaster.pid; a pid file left by a dead one means its last stop was unclean
  (it "recovers"). Listens on PORT after LISTEN_DELAY seconds (0.3 by default).
- SIGTERM (smart shutdown): accepts no new client, waits for every client to disconnect.
- SIGINT (fast shutdown): waits while DIR/hold exists (a long checkpoint the test controls),
  closes the clients, removes the pid file.
- SIGQUIT (immediate): exits at once, leaving the pid file.
Every step is a line of DIR/events (`start PID`, `recovered PID`, `refused PID`,
`clean PID`), so a test reads what happened, in order.
"""

import os
import signal
import socket
import sys
import time

PORT = int(sys.argv[1])
DIR = sys.argv[2]
LISTEN_DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 0.3
PIDFILE = os.path.join(DIR, "server.pid")
asked: list[int] = []


def event(text: str) -> None:
    with open(os.path.join(DIR, "events"), "a") as out:
        out.write(f"{text} {os.getpid()}\n")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


if os.path.exists(PIDFILE):
    with open(PIDFILE) as held:
        holder = int(held.read().strip() or 0)
    if holder and alive(holder):
        event("refused")
        print(f"lock file {PIDFILE} held by {holder}", file=sys.stderr, flush=True)
        sys.exit(1)
    event("recovered")
with open(PIDFILE, "w") as out:
    out.write(str(os.getpid()))
event("start")
for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
    signal.signal(signum, lambda n, f: asked.append(n))
time.sleep(LISTEN_DELAY)
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", PORT))
server.listen(16)
server.setblocking(False)
print("ready to accept connections", flush=True)
clients: list[socket.socket] = []
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    if signal.SIGQUIT in asked:
        os._exit(3)
    if signal.SIGINT in asked:
        while os.path.exists(os.path.join(DIR, "hold")) and time.monotonic() < deadline:
            time.sleep(0.02)
        break
    if signal.SIGTERM not in asked:
        try:
            conn, _ = server.accept()
            conn.setblocking(False)
            clients.append(conn)
        except BlockingIOError:
            pass
    for conn in list(clients):
        try:
            if conn.recv(1024) == b"":
                clients.remove(conn)
        except BlockingIOError:
            pass
    if signal.SIGTERM in asked and not clients:
        break
    time.sleep(0.01)
for conn in clients:
    conn.close()
server.close()
os.remove(PIDFILE)
event("clean")
