"""The handler of `procler events`, which reads the supervisor's event stream (GET
/v1/events, Server-Sent Events over the project's socket) and prints every message as one
NDJSON line. Without --follow it prints the snapshot and the buffered events, then ends;
with it, new events until --timeout or Ctrl-C (exit 130)."""

from agentcli.commands import Command
from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket
    from collections.abc import Iterator
    from typing import Any

    from agentcli.commands import Raw


def show(values: "dict[str, Any]", command: "Command") -> "Any":
    import time
    from urllib.parse import quote

    from agentcli.commands import Raw, Stream
    from procler import project
    from procler.cli.client import call, config_path_of

    since = values.get("since")
    if since is not None and not since.isdigit():
        raise UsageError(
            f"--since takes a message's seq (a whole number), got {since!r}",
            suggestion="pass the seq of the last message you saw, e.g. --since 1764590000000042",
        )
    config_path = config_path_of(values)
    code, payload = call(config_path, "daemon status", {}, autostart=True)  # one must run
    if code != 0:
        return Raw(payload.decode("utf-8"), code)
    names = [n for item in values.get("logs") or () for n in item.split(",") if n]
    query = ["once"] if not values.get("follow") else []
    if since is not None:
        query.append(f"since={since}")
    if names:
        query.append("logs=" + ",".join(quote(n, safe="") for n in names))
    path = "/v1/events" + ("?" + "&".join(query) if query else "")
    sock_path = project.socket_path(project.project_root(config_path))
    opened = open_events(sock_path, path)
    if isinstance(opened, Raw):
        return opened
    until = time.monotonic() + values["timeout"] if values.get("follow") else None
    sock, rest = opened
    return Stream(event_messages(sock, rest, until))


def open_events(sock_path: "str", path: "str") -> "tuple[_socket.socket, bytes] | Raw":
    """(socket, bytes after the headers) of an open stream, or Raw: the supervisor's refusal."""
    from agentcli.commands import Raw
    from procler.errors import SupervisorUnavailable
    from procler.wire import EXIT_CODE, HEADER_WAIT, NotRunning, open_stream

    try:
        status, headers, sock, rest = open_stream(sock_path, path, HEADER_WAIT)
    except (NotRunning, OSError) as exc:
        raise SupervisorUnavailable(f"the event stream did not open: {exc}") from None
    if status == 200:
        return sock, rest
    try:
        while len(rest) < int(headers.get("content-length", "0")):  # the error envelope
            data = sock.recv(65536)
            if not data:
                break
            rest += data
    finally:
        sock.close()
    return Raw(rest.decode("utf-8"), int(headers.get(EXIT_CODE, "3")))


def event_messages(
    sock: "_socket.socket", rest: "bytes", until: "float | None", keep: "bool" = False
) -> "Iterator[Any]":
    """The stream's messages until it ends (or, following, until `until`). The socket is
    closed then, unless `keep` asks to keep one that reached `until` open (a subscription
    renewed holds the old one until the new one is open: see procler.cli.event_feed)."""
    try:
        yield from _messages(sock, rest, until)
    except BaseException:
        sock.close()
        raise
    if not keep:
        sock.close()


def _messages(sock: "_socket.socket", rest: "bytes", until: "float | None") -> "Iterator[Any]":
    import json
    import time

    from procler.errors import SupervisorUnavailable
    from procler.wire import HEADER_WAIT

    body = _Dechunker()
    text = ""
    data = rest
    while True:
        text += body.feed(data).decode("utf-8")
        *frames, text = text.split("\n\n")
        for frame in frames:
            for line in frame.split("\n"):
                if line.startswith("data: "):
                    yield json.loads(line[6:])
        if body.done:
            return
        left = HEADER_WAIT if until is None else until - time.monotonic()
        if left <= 0:
            return
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except TimeoutError:
            if until is not None:
                return
            raise SupervisorUnavailable(f"the event stream stalled for {HEADER_WAIT:g}s") from None
        if not data:
            return  # the supervisor stopped


class _Dechunker:
    """HTTP/1.1 chunked transfer decoding, fed bytes as they come."""

    def __init__(self) -> None:
        self.pending = b""
        self.done = False

    def feed(self, data: "bytes") -> "bytes":
        self.pending += data
        out = []
        while True:
            size_line, found, after = self.pending.partition(b"\r\n")
            if not found:
                break
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                self.done = True
                break
            if len(after) < size + 2:
                break
            out.append(after[:size])
            self.pending = after[size + 2 :]
        return b"".join(out)
