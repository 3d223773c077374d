"""The protocol between the CLI and the supervisor: its routes, headers and framing.

Both ends import it; HTTP/1.1 over the project's unix socket, as little of it as the CLI
needs. This runs on every command, so it uses the C-level `_socket` module (the `socket`
module imports `enum`, `selectors` and more) and hand-writes the tiny HTTP it needs.
A reply may announce, in its early headers, how long its body may take
(`X-Reply-Within`, seconds): the wait for the headers and the wait for the body are
then bounded separately.

A request may carry its deadline (`X-Deadline`, absolute Unix time): the supervisor
drops a request whose deadline passed before it acts on it, and sends the headers of a
request it took within HEADERS_WITHIN. So a client that waited HEADER_WAIT for headers
in vain knows the command was not carried out (unless the supervisor froze in the
second after taking it).
"""

import _socket
import os
import time

from procler.project import at_socket

ARGV_ROUTE = "/v1/argv"  # the console entry offers its raw argv (see procler.entry)
COMMANDS_PREFIX = "/v1/commands/"  # + the command's words joined by '/'
REPLY_WITHIN = "x-reply-within"
EXIT_CODE = "x-exit-code"
REPLY_MARGIN = 30.0  # added to a command's own --timeout for the read timeout
DEADLINE = "x-deadline"
TAKE_WITHIN = 8.0  # seconds from sending to a request's deadline
HEADERS_WITHIN = 1.0  # a supervisor sends a taken request's headers within this
HEADER_WAIT = TAKE_WITHIN + HEADERS_WITHIN + 1.0  # a client's wait for the headers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def command_path(name: "str") -> "str":
    """The route of a declared command: `group start` -> /v1/commands/group/start."""
    return COMMANDS_PREFIX + name.replace(" ", "/")


def reply_bound(values: "dict[str, Any]") -> "float":
    """How long a command's answer may take: its own --timeout (or 30 s) plus a margin."""
    wait = values.get("timeout")
    return (wait if isinstance(wait, float) else 30.0) + REPLY_MARGIN


def argv_body(cwd: "str", config: "str", argv: "list[str]") -> "bytes":
    """The argv route's request body: cwd, config path and argv joined by NUL bytes
    (none can contain one)."""
    return b"\0".join(os.fsencode(part) for part in (cwd, config, *argv))


def argv_parts(body: "bytes") -> "list[str]":
    """The argv route's request body split back: [cwd, config, *argv]."""
    return [os.fsdecode(part) for part in body.split(b"\0")]


def argv_reply(code: "int", envelope: "bytes") -> "bytes":
    """An answer body carrying its exit code: the exit code, a newline and the envelope
    (every argv route answer, and any answer whose headers went first)."""
    return b"%d\n" % code + envelope


def split_argv_reply(payload: "bytes") -> "tuple[int, str]":
    """(exit code, envelope text) of an answer body made by argv_reply."""
    code, _, text = payload.partition(b"\n")
    return int(code), text.decode("utf-8")


class NotRunning(Exception):
    """No supervisor answers on the socket (absent, stale, or gone before answering)."""


class Unanswered(TimeoutError):
    """The supervisor did not answer in time; `taken` is True once its headers came."""

    def __init__(self, message: "str", taken: "bool") -> "None":
        super().__init__(message)
        self.taken = taken


def deadline() -> "float":
    """The deadline of a request sent now (see TAKE_WITHIN)."""
    return time.time() + TAKE_WITHIN


def request(
    sock_path: "str",
    method: "str",
    path: "str",
    body: "bytes",
    timeout: "float",
    until: "float | None" = None,
) -> "tuple[int, dict[str, str], bytes]":
    """One request; returns (status, headers, body). Raises NotRunning if nobody answers.

    `timeout` bounds each wait for the headers (and for the body unless the reply
    announces its own bound); Unanswered when it passes. `until` is the request's
    deadline (X-Deadline), if it has one.
    """
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        try:
            at_socket(sock_path, sock.connect)
        except (FileNotFoundError, ConnectionRefusedError, NotADirectoryError) as exc:
            raise NotRunning(str(exc)) from None
        extra = "" if until is None else f"{DEADLINE}: {until:.3f}\r\n"
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: procler\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
        )
        try:
            sock.sendall(head.encode() + body)
            try:
                raw = _read_head(sock)
            except TimeoutError:
                raise Unanswered(f"no answer within {timeout:g}s", taken=False) from None
            header_blob, _, payload = raw.partition(b"\r\n\r\n")
            status, headers = _parse_head(header_blob)
            if REPLY_WITHIN in headers:
                sock.settimeout(float(headers[REPLY_WITHIN]))
            try:
                payload += _read_rest(sock)
            except TimeoutError:
                raise Unanswered("the answer stopped coming", taken=True) from None
        except (ConnectionResetError, BrokenPipeError) as exc:
            raise NotRunning(f"the supervisor closed the connection: {exc}") from None
    finally:
        sock.close()
    if headers.get("transfer-encoding") == "chunked":
        payload = _unchunk(payload)
    return status, headers, payload


def open_stream(
    sock_path: "str", path: "str", timeout: "float"
) -> "tuple[int, dict[str, str], _socket.socket, bytes]":
    """A GET whose answer streams (the event stream): (status, headers, the socket, the
    bytes read after the headers). The caller reads the rest and closes the socket."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        at_socket(sock_path, sock.connect)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: procler\r\nConnection: close\r\n\r\n".encode())
        header_blob, _, rest = _read_head(sock).partition(b"\r\n\r\n")
    except OSError as exc:
        sock.close()
        raise NotRunning(str(exc)) from None
    except NotRunning:
        sock.close()
        raise
    status, headers = _parse_head(header_blob)
    return status, headers, sock, rest


def _read_head(sock: "_socket.socket") -> "bytes":
    raw = b""
    while b"\r\n\r\n" not in raw:
        data = sock.recv(65536)
        if not data:
            raise NotRunning("the supervisor closed the connection without answering")
        raw += data
    return raw


def _read_rest(sock: "_socket.socket") -> "bytes":
    chunks: list[bytes] = []
    while True:
        data = sock.recv(65536)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


def _parse_head(blob: "bytes") -> "tuple[int, dict[str, str]]":
    lines = blob.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers


def _unchunk(data: "bytes") -> "bytes":
    out = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)
