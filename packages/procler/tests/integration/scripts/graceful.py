"""A server that needs time to shut down: graceful.py MARKER_FILE [SECONDS].

On SIGTERM it takes SECONDS (1.5 by default) to finish, then writes "clean" to
MARKER_FILE and exits 0. A stop that kills it sooner leaves the file without "clean".
"""

import signal
import sys
import time

MARKER = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
stopping = False


def on_term(signum: int, frame: object) -> None:
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)
with open(MARKER, "w") as out:
    out.write("started\n")
print("ready", flush=True)
deadline = time.monotonic() + 600
while not stopping and time.monotonic() < deadline:
    time.sleep(0.01)
time.sleep(SECONDS)  # the shutdown work
with open(MARKER, "a") as out:
    out.write("clean\n")
