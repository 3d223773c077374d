"""A live feed of the supervisor's event stream (GET /v1/events over the project's socket,
as `procler events --follow` reads it), read in a thread: the TUI's and `up --attach`'s.

Every subscription starts with a snapshot, so after any interruption the table is whole
again; between supervisors (one stopped, one started later) the feed says the supervisor
is gone and retries with a bounded backoff. It reconnects at least every FOLLOW_FOR
seconds (resuming after the last seq), and at once when the processes whose log lines
it should carry change.
"""

import contextlib
import socket
import threading
import time
from urllib.parse import quote

from agentcli.commands import Raw
from procler import project
from procler.cli.events import event_messages, open_events
from procler.errors import SupervisorUnavailable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket
    from collections.abc import Callable
    from typing import Any

FOLLOW_FOR = 30.0  # seconds one subscription is followed before it is renewed
RETRY_FIRST, RETRY_MOST = 0.25, 2.0  # seconds between attempts while no supervisor answers


class Feed:
    """Hands each event-stream message to `deliver`; calls `lost(True)` when the
    supervisor stops answering and `lost(False)` when it answers again."""

    def __init__(
        self,
        config_path: str,
        deliver: "Callable[[dict[str, Any]], None]",
        lost: "Callable[[bool], None]",
    ) -> None:
        self.sock_path = project.socket_path(project.project_root(config_path))
        self.deliver = deliver
        self.lost = lost
        self.logs: tuple[str, ...] = ()
        self.stopped = threading.Event()
        self._sock: _socket.socket | None = None
        self._lock = threading.Lock()

    def follow_logs(self, names: "tuple[str, ...]") -> None:
        """Carry these processes' log lines from now on (renews the subscription)."""
        if names != self.logs:
            self.logs = names
            self._interrupt()

    def stop_following(self) -> None:
        self.stopped.set()
        self._interrupt()

    def _interrupt(self) -> None:
        with self._lock:
            if self._sock is not None:
                with contextlib.suppress(OSError):
                    self._sock.shutdown(socket.SHUT_RDWR)  # the blocked read returns

    def run(self) -> None:
        """Until stop(): subscribe, deliver, renew; the thread's whole life.

        A renewed subscription is opened before the one it replaces is closed: the
        supervisor publishes a process's output lines only while someone asks for them,
        so a moment with no subscription would lose the lines printed in it. The new one
        resumes after the last seq delivered, so nothing comes twice.
        """
        since: int | None = None
        retry = RETRY_FIRST
        gone: bool | None = None  # not known until the first attempt
        held: _socket.socket | None = None  # the previous subscription, until the next opens
        try:
            while not self.stopped.is_set():
                asked = self.logs
                try:
                    opened = open_events(self.sock_path, self._path(since, asked))
                except SupervisorUnavailable:
                    if gone is not True:
                        gone = True
                        self.lost(True)
                    self.stopped.wait(retry)
                    retry = min(retry * 2, RETRY_MOST)
                    continue
                finally:
                    if held is not None:
                        held.close()
                        held = None
                if isinstance(opened, Raw):
                    # Refused: a resume point a new supervisor never sent, else a process
                    # (whose logs were asked) that a reload removed.
                    if since is None:
                        self.logs = ()
                        self.stopped.wait(retry)
                    since = None
                    continue
                if gone is not False:
                    gone = False
                    self.lost(False)
                retry = RETRY_FIRST
                sock, rest = opened
                with self._lock:
                    self._sock = sock
                    # stopped or changed while it opened: that interrupt found no socket
                    if self.stopped.is_set() or self.logs != asked:
                        sock.shutdown(socket.SHUT_RDWR)
                try:
                    until = time.monotonic() + FOLLOW_FOR
                    for message in event_messages(sock, rest, until, keep=True):
                        if isinstance(message.get("seq"), int) and message["type"] != "snapshot":
                            since = message["seq"]
                        self.deliver(message)
                    held = sock
                except (SupervisorUnavailable, OSError, ValueError):
                    pass  # stalled or cut (closed): the next subscription resumes
                finally:
                    with self._lock:
                        self._sock = None
        finally:
            if held is not None:
                held.close()

    @staticmethod
    def _path(since: "int | None", logs: "tuple[str, ...]") -> str:
        query = [] if since is None else [f"since={since}"]
        if logs:
            query.append("logs=" + ",".join(quote(n, safe="") for n in logs))
        return "/v1/events" + ("?" + "&".join(query) if query else "")
