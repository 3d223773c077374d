"""The event stream of a real supervisor over its socket: SSE (GET /v1/events), WebSocket
(GET /v1/ws) and `procler events`: snapshot, transitions, resume, gap, drops."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from procler_testkit.harness import PROCLER, PY, Project, wait_for
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import ClientConnection, unix_connect

from procler import project
from procler.declarations import APP
from procler.surfaces import tools

SLEEPER = f"""
processes:
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
  web:
    args: [{PY}, -u, -c, "import time; print('ready', flush=True); time.sleep(600)"]
    healthcheck: {{log: ready}}
"""
MIGRATE = f'{PY} -c "import sys; sys.exit(3)"'
RECIPE = (
    SLEEPER
    + f"""
recipes:
  deploy:
    steps:
      - start: api
      - id: migrate
        exec: '{MIGRATE}'
      - start: web
"""
)
LINES = 20_000
CHATTY = f"""
processes:
  chatty:
    args: [{PY}, -c, "import time\\nfor i in range({LINES}):\\n    print('x' * 90, i)\\nprint('done', flush=True)\\ntime.sleep(600)"]
events:
  subscriber_queue: 5
"""
Message = dict[str, Any]


class UnixHTTP(http.client.HTTPConnection):
    def __init__(self, path: str) -> None:
        super().__init__("procler", timeout=20)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        project.at_socket(self.path, self.sock.connect)  # a deep temp dir: past sun_path


def websocket(sock: str, url: str) -> ClientConnection:
    """A websocket over the supervisor's socket (a deep temp dir: past sun_path)."""
    return project.at_socket(sock, lambda address: unix_connect(address, url))


class SSE:
    """A raw SSE client: each message with its `id:` (None when it has none)."""

    def __init__(self, proj: Project, query: str = "", headers: dict[str, str] | None = None):
        self.conn = UnixHTTP(project.socket_path(str(proj.root)))
        self.conn.request("GET", "/v1/events" + query, headers=headers or {})
        self.resp = self.conn.getresponse()

    def next(self) -> tuple[str | None, Message]:
        event_id = None
        while True:
            line = self.resp.readline().decode()
            assert line, "the stream ended"
            if line.startswith("id: "):
                event_id = line[4:].strip()
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "\n":
                return event_id, data

    def close(self) -> None:
        self.conn.close()


def change(m: Message) -> tuple[str, str, str, str, str]:
    return m["type"], m["name"], m["from"], m["to"], m["reason"]


def head(proj: Project) -> int:
    """The newest event's seq (the snapshot's), read with `procler events` (which starts
    a supervisor when none runs)."""
    out = proj.events()
    return int(out[0]["seq"])


STARTED_API = [
    ("status", "api", "stopped", "starting", "start requested"),
    ("status", "api", "starting", "running", "started"),
]
STOPPED_API = [
    ("status", "api", "running", "stopping", "stop requested"),
    ("status", "api", "stopping", "stopped", "stop requested"),
]


def test_sse_snapshot_transitions_health_and_resume(
    make_project: Callable[[str], Project],
) -> None:
    proj = make_project(SLEEPER)
    seq = head(proj)
    stream = SSE(proj)
    assert stream.resp.status == 200
    assert stream.resp.getheader("content-type") == "text/event-stream; charset=utf-8"
    snap_id, snap = stream.next()
    assert (snap_id, snap["type"], snap["seq"]) == (None, "snapshot", seq)
    assert [(p["name"], p["status"]) for p in snap["processes"]] == [
        ("api", "stopped"),
        ("web", "stopped"),
    ]
    proj.ok("start", "api")
    got = [stream.next() for _ in STARTED_API]
    assert [change(m) for _, m in got] == STARTED_API
    assert [(i, m["seq"]) for i, m in got] == [(str(seq + 1), seq + 1), (str(seq + 2), seq + 2)]
    proj.ok("start", "web")
    assert [change(stream.next()[1]) for _ in range(5)] == [
        ("status", "web", "stopped", "starting", "start requested"),
        ("health", "web", "stopped", "starting", "run started"),
        ("health", "web", "starting", "healthy", "health check passed: ready"),
        ("status", "web", "starting", "running", "started"),
        ("status", "web", "running", "healthy", "health check healthy during start"),
    ]
    stream.close()
    proj.ok("stop", "api")  # while nobody listens
    again = SSE(proj, headers={"Last-Event-ID": str(seq + 7)})
    snap = again.next()[1]
    assert (snap["seq"], [p["status"] for p in snap["processes"]]) == (
        seq + 9,
        ["stopped", "healthy"],
    )
    resumed = [again.next() for _ in STOPPED_API]
    assert [change(m) for _, m in resumed] == STOPPED_API
    assert [i for i, _ in resumed] == [str(seq + 8), str(seq + 9)]
    again.close()


def test_websocket_carries_the_same_messages(make_project: Callable[[str], Project]) -> None:
    proj = make_project(SLEEPER)
    seq = head(proj)
    sock = project.socket_path(str(proj.root))
    with websocket(sock, "ws://procler/v1/ws") as ws:
        snap = json.loads(ws.recv(timeout=20))
        assert (snap["type"], snap["seq"], len(snap["processes"])) == ("snapshot", seq, 2)
        proj.ok("start", "api")
        got = [json.loads(ws.recv(timeout=20)) for _ in STARTED_API]
        assert [change(m) for m in got] == STARTED_API
        assert [m["seq"] for m in got] == [seq + 1, seq + 2]
    proj.ok("stop", "api")
    with websocket(sock, f"ws://procler/v1/ws?since={seq + 2}&once") as ws:
        assert json.loads(ws.recv(timeout=20))["seq"] == seq + 4
        assert [change(json.loads(ws.recv(timeout=20))) for _ in STOPPED_API] == STOPPED_API
        with pytest.raises(ConnectionClosedOK):  # `once`: closed after the backlog
            ws.recv(timeout=20)


def test_gap_when_the_resume_point_left_the_buffer(
    make_project: Callable[[str], Project],
) -> None:
    proj = make_project(SLEEPER + "events:\n  buffer: 2\n")
    seq = head(proj)
    proj.ok("start", "api")
    proj.ok("stop", "api")  # four events; the buffer keeps the last two
    stream = SSE(proj, f"?since={seq}&once")
    assert stream.next()[1]["seq"] == seq + 4
    gap_id, gap = stream.next()
    assert (gap_id, gap) == (
        str(seq + 2),
        {"seq": seq + 2, "type": "gap", "from": seq + 1, "to": seq + 2},
    )
    assert [change(stream.next()[1]) for _ in STOPPED_API] == STOPPED_API
    assert stream.resp.readline() == b""  # `once`: the stream ends after the backlog
    stream.close()
    assert [m["type"] for m in proj.events("--since", str(seq))] == [
        "snapshot",
        "gap",
        "status",
        "status",
    ]
    bad = SSE(proj, "?since=soon")
    assert (bad.resp.status, json.loads(bad.resp.read())["error_code"]) == (400, "USAGE")
    bad.close()


def test_a_stalled_subscriber_drops_counted_events_and_blocks_nothing(
    make_project: Callable[[str], Project],
) -> None:
    proj = make_project(CHATTY)
    seq = head(proj)
    stream = SSE(proj, "?logs=chatty")
    assert stream.next()[1]["type"] == "snapshot"
    proj.ok("start", "chatty")  # ~2 MB of lines while this subscriber reads nothing
    assert wait_for(lambda: proj.ok("logs", "chatty", "--tail", "1")["lines"][0]["text"] == "done")
    received: list[int] = []
    dropped: list[Message] = []
    while len(received) + sum(d["count"] for d in dropped) < LINES + 3:
        message = stream.next()[1]
        if message["type"] == "dropped":
            dropped.append(message)
        else:
            received.append(message["seq"])
    stream.close()
    assert dropped  # its queue holds 5: most of the burst was dropped for it alone
    assert all(d["count"] == d["to"] - d["from"] + 1 for d in dropped)
    covered = sorted(received + [s for d in dropped for s in range(d["from"], d["to"] + 1)])
    assert covered == list(range(seq + 1, seq + LINES + 4))  # every event: sent or counted


def test_events_cli_once_follow_sigint_and_mcp(make_project: Callable[[str], Project]) -> None:
    proj = make_project(SLEEPER)
    seq = head(proj)
    proj.ok("start", "api")
    out = proj.events()
    assert [m["type"] for m in out] == ["snapshot", "status", "status"]
    assert [change(m) for m in out[1:]] == STARTED_API
    assert [change(m) for m in proj.events("--since", str(seq + 1))[1:]] == STARTED_API[1:]
    code, env = proj.run("events", "--logs", "nope")
    assert (code, env["error_code"]) == (2, "PROCESS_NOT_FOUND")
    env, code = tools.call(
        APP.command("events"), {"since": seq}, str(proj.root / ".procler/config.yaml")
    )
    assert code == 0
    assert [change(m) for m in env["data"]["messages"][1:]] == STARTED_API
    with follow(proj) as follower:
        assert follower.stdout is not None
        assert json.loads(follower.stdout.readline())["type"] == "snapshot"
        proj.ok("stop", "api")
        assert [change(json.loads(follower.stdout.readline())) for _ in STOPPED_API] == STOPPED_API
        follower.send_signal(signal.SIGINT)
        assert follower.wait(timeout=20) == 130
        assert follower.stdout.read() == ""
    with follow(proj) as ending:
        assert ending.stdout is not None
        assert json.loads(ending.stdout.readline())["type"] == "snapshot"
        proj.ok("daemon", "stop")  # the stream ends with the supervisor
        assert ending.wait(timeout=20) == 0


def test_recipe_steps_are_published_as_they_move(make_project: Callable[[str], Project]) -> None:
    proj = make_project(RECIPE)
    seq = head(proj)
    code, env = proj.run("recipe", "run", "deploy")
    assert (code, env["error_code"]) == (1, "RECIPE_FAILED")
    run_id = env["data"]["run_id"]
    steps = [m for m in proj.events("--since", str(seq)) if m["type"] == "recipe_step"]
    assert {(m["name"], m["run_id"]) for m in steps} == {("deploy", run_id)}
    migrate = f"exec {MIGRATE}"
    assert [(m["step"], m["action"], m["from"], m["to"], m["reason"]) for m in steps] == [
        ("start-1", "start api", "pending", "running", ""),
        ("start-1", "start api", "running", "succeeded", ""),
        ("migrate", migrate, "pending", "running", ""),
        ("migrate", migrate, "running", "failed", f"`{MIGRATE}` exited with 3"),
        ("start-3", "start web", "pending", "skipped", "an earlier step failed (on_error: stop)"),
    ]


def follow(proj: Project) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [PROCLER, "events", "--follow", "--timeout", "60s"],
        cwd=proj.root,
        stdout=subprocess.PIPE,
        text=True,
    )
