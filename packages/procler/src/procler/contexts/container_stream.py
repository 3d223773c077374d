"""Bridges from the blocking docker SDK (every engine speaking the Docker API) to asyncio:
output streams and exit events.

The SDK blocks, so each stream is read in a daemon thread that hands items to the event
loop with `call_soon_threadsafe`; daemon threads never keep a stopping supervisor alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from procler.contexts.base import ExitInfo, OutputLine

log = logging.getLogger("procler.containers")

RECONNECT_DELAY = 1.0  # between attempts to follow the engine's events again


def engine_time(stamp: str) -> float | None:
    """'2026-01-02T03:04:05.123456789Z' (the engine's RFC 3339, nanoseconds) -> epoch."""
    if not stamp.endswith("Z"):
        return None
    whole, _, frac = stamp[:-1].partition(".")
    try:
        seconds = datetime.fromisoformat(whole + "+00:00").timestamp()
    except ValueError:
        return None
    return seconds + (float("0." + frac) if frac.isdigit() else 0.0)


def parse_log_line(raw: str) -> tuple[float | None, str]:
    """'2026-01-02T03:04:05.123456789Z text' (docker logs --timestamps) -> (epoch, text)."""
    stamp, sep, text = raw.partition(" ")
    at = engine_time(stamp) if sep else None
    return (at, text) if at is not None else (None, raw)


class LineSplitter:
    """Cuts a byte stream into text lines; keeps an unfinished line for the next chunk."""

    def __init__(self) -> None:
        self._rest = b""

    def feed(self, chunk: bytes) -> list[str]:
        *lines, self._rest = (self._rest + chunk).split(b"\n")
        return [line.decode("utf-8", "replace").rstrip("\r") for line in lines]

    def flush(self) -> list[str]:
        rest, self._rest = self._rest, b""
        return [rest.decode("utf-8", "replace")] if rest else []


def close_stream(stream: Any) -> None:
    """Close an SDK stream and its HTTP response: the SDK's own close() shuts the socket
    only while the response is open, leaving an ended exec stream's socket unreleased."""
    with contextlib.suppress(Exception):
        stream.close()
    response = getattr(stream, "_response", None)
    if response is not None:
        with contextlib.suppress(Exception):
            response.close()


def _post(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], *args: Any) -> bool:
    """Run callback on the loop from a thread; False once the loop is gone."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # the loop closed: the supervisor is exiting
        return False
    return True


def follow_in_thread(
    stream: Iterable[Any],
    to_lines: Callable[[Any], Iterable[OutputLine]],
    finish: Callable[[], Iterable[OutputLine]],
    queue: asyncio.Queue[OutputLine | None],
    name: str,
) -> threading.Thread:
    """Read stream in a daemon thread, put its lines on queue, then None when it ends."""
    loop = asyncio.get_running_loop()

    def run() -> None:
        try:
            for chunk in stream:
                for line in to_lines(chunk):
                    if not _post(loop, queue.put_nowait, line):
                        return
        except Exception as exc:  # noqa: BLE001 - a broken stream just ends the output
            log.info("%s: output stream ended: %s", name, exc)
        finally:
            close_stream(stream)
        for line in finish():
            _post(loop, queue.put_nowait, line)
        _post(loop, queue.put_nowait, None)

    thread = threading.Thread(target=run, name=f"docker-output-{name}", daemon=True)
    thread.start()
    return thread


def demuxed_lines(splitters: dict[str, LineSplitter], chunk: Any) -> Iterator[OutputLine]:
    """(stdout bytes | None, stderr bytes | None) from exec_start(demux=True) -> lines."""
    for stream, data in zip(("stdout", "stderr"), chunk, strict=True):
        if data:
            for text in splitters[stream].feed(data):
                yield OutputLine(stream, text)


def merged_logs(api: Any, ident: str, since: float | None) -> Any:
    """Follow a container's stdout and stderr as one stream of (stream name, bytes) frames.

    One request keeps the engine's order, so the stored times never go backwards (two
    requests, one per stream, race each other). The SDK's logs() drops the stream id of
    each frame, hence the request is made here and its frames read directly.
    """
    from docker.types.daemon import CancellableStream

    params: dict[str, Any] = {"stdout": 1, "stderr": 1, "follow": 1, "timestamps": 1}
    if since is not None:
        params["since"] = since
    url = api._url("/containers/{0}/logs", ident)
    # No read timeout: an engine may answer only with the first line (see OpenedInThread).
    response = api._get(url, params=params, stream=True, timeout=None)
    api._raise_for_status(response)
    api._disable_socket_timeout(api._get_raw_response_socket(response))

    def frames() -> Iterator[tuple[str, bytes]]:
        while len(header := response.raw.read(8)) == 8:
            kind, length = struct.unpack(">BxxxL", header)
            data = response.raw.read(length) if length else b""
            if length and not data:
                return
            yield ("stderr" if kind == 2 else "stdout"), data

    return CancellableStream(frames(), response)


class OpenedInThread:
    """A followed stream opened by the thread that reads it: some engines (Podman 4) send a
    followed log's answer only with its first line, so opening it on the caller's path would
    hold the caller until the process prints. Closed before it opened: it yields nothing."""

    def __init__(self, open_stream: Callable[[], Any]) -> None:
        self._open = open_stream
        self._stream: Any = None
        self._closed = False
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[Any]:
        stream = self._open()
        with self._lock:
            closed, self._stream = self._closed, stream
        if closed:
            close_stream(stream)
            return iter(())
        return iter(stream)

    def close(self) -> None:
        with self._lock:
            self._closed, stream = True, self._stream
        if stream is not None:
            close_stream(stream)


class StdoutFrames:
    """A tty container's raw log stream as stdout frames (a tty merges both streams)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[tuple[str, bytes]]:
        return (("stdout", chunk) for chunk in self._stream)

    def close(self) -> None:
        close_stream(self._stream)


def timestamped_lines(
    splitters: dict[str, LineSplitter], frame: tuple[str, bytes]
) -> Iterator[OutputLine]:
    """A frame of `docker logs --timestamps` -> lines with the engine's times."""
    stream, data = frame
    for raw in splitters[stream].feed(data):
        ts, text = parse_log_line(raw)
        yield OutputLine(stream, text, ts)


def _settle(future: asyncio.Future[ExitInfo], info: ExitInfo) -> None:
    if not future.done():
        future.set_result(info)


class ExitWatcher:
    """Follows the engine's events of a container's and an exec's end (`die` and `exec_die`
    for Docker) in one thread for the whole context.

    A future is registered before the container or exec starts, so no exit is missed; after
    a lost connection the events since the last one seen are replayed by the engine, and
    `recheck` asks about every pending id in case one was lost anyway. An exec's end that
    names no exec (Podman's) has `recheck` ask about every pending id.
    """

    def __init__(
        self,
        connect: Callable[[float | None], Iterable[dict[str, Any]]],
        events: tuple[str, str],
    ) -> None:
        self._connect = connect
        self._died, self._exec_died = events
        self._pending: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future[ExitInfo]]] = {}
        self._lock = threading.Lock()
        self._subscribing = threading.Lock()
        self._events: Iterable[dict[str, Any]] | None = None
        self._subscribed = False
        self.recheck: Callable[[str], ExitInfo | None] = lambda _id: None
        self.closed = False

    def subscribe(self) -> None:
        """Follow the engine's events from now on (once). The watching thread opens the
        stream, because some engines (Podman 4) answer an events request only with its first
        event; asking for the events since now has the engine replay what came before."""
        with self._subscribing:
            if not self._subscribed:
                self._subscribed = True
                since = time.time()
                threading.Thread(
                    target=self._run, args=(since,), name="engine-events", daemon=True
                ).start()

    def close(self) -> None:
        """Stop following the engine's events (the thread ends with the stream)."""
        self.closed = True
        close_stream(self._events)

    def expect(self, ident: str) -> asyncio.Future[ExitInfo]:
        """A future resolved when the container or exec `ident` ends."""
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._pending.get(ident)
            if entry is None:
                entry = (loop, loop.create_future())
                self._pending[ident] = entry
        return entry[1]

    def resolve(self, ident: str, info: ExitInfo) -> None:
        with self._lock:
            entry = self._pending.pop(ident, None)
        if entry is not None:
            loop, future = entry
            _post(loop, _settle, future, info)

    def _run(self, since: float) -> None:
        last, reconnecting = since, False
        while not self.closed:
            try:
                self._events = self._connect(last)
                if reconnecting:  # in case an event was lost anyway
                    self._recheck_pending()
                for event in self._events:
                    last = float(event.get("timeNano", 0)) / 1e9 or last
                    self._dispatch(event)
            except Exception as exc:  # noqa: BLE001 - the engine went away: follow it again
                if not self.closed:
                    log.warning("engine events stream broken: %s", exc)
            if not self.closed:
                time.sleep(RECONNECT_DELAY)
            reconnecting = True

    def _recheck_pending(self) -> None:
        with self._lock:
            pending = list(self._pending)
        for ident in pending:
            with contextlib.suppress(Exception):
                info = self.recheck(ident)
                if info is not None:
                    self.resolve(ident, info)

    def _dispatch(self, event: dict[str, Any]) -> None:
        action = str(event.get("Action", ""))
        attrs = event.get("Actor", {}).get("Attributes", {})
        code = attrs.get("exitCode")
        info = ExitInfo(int(code) if code is not None and code.isdigit() else None)
        if action == self._exec_died:
            if "execID" in attrs:
                self.resolve(attrs["execID"], info)
            else:
                self._recheck_pending()
        elif action == self._died:
            self.resolve(str(event.get("id", "")), info)
