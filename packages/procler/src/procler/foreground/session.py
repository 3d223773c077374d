"""One attached `up`: follow the event stream, start the stack, print until it ends.

Everything the session learns arrives on one queue: the event stream's messages (read by
procler.cli.event_feed in a thread), the answers of the commands it sends (each in a
thread, as they block on the socket) and the signals (their handlers only enqueue: a
SimpleQueue's put is safe in a signal handler). The main thread takes them one at a time,
so nothing is shared between threads but the queue.

The first Ctrl-C (or SIGTERM, SIGHUP) stops the stack as `down` does (dependents first,
each process's stop signal and timeout); a second one kills what is left (`stop --kill`).
The stack also ends by itself when every process followed is at rest. The exit code is 0
after a clean stop, the code of the first process that failed when one did, the error's
when `up` failed (the stack it started is stopped), 130 after a kill.
"""

import queue
import signal
import threading
import time

from agentcli.commands import Raw
from agentcli.envelope import emit_text, write_stdout
from procler.cli.client import call
from procler.cli.event_feed import Feed
from procler.foreground.lines import Lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
AT_REST = frozenset({"stopped", "exited", "failed"})  # procler.states.AT_REST, by name
FIRST_SNAPSHOT = 10.0  # seconds to wait for the event stream's first message
TICK = 1.0  # seconds between looks at a quiet queue (every wait is bounded)
# seconds to wait, once `down` answered, for the stream's last status lines (they travel on
# another connection than the answer, so they may come after it)
LAST_LINES = 5.0
KILLED = 130


class Session:
    """The processes followed (names), how to reach them, and what happened so far."""

    def __init__(
        self, config_path: str, names: "list[str]", namespace: "str | None", colour: bool
    ) -> None:
        self.config_path = config_path
        self.names = names
        self.namespace = namespace
        self.lines = Lines(names, colour)
        self.inbox: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.statuses: dict[str, str] = {}
        self.failed: str | None = None  # the first process seen failing
        self.up_done = False
        self.up_code = 0  # the exit code of an `up` that failed
        self.stopping = False
        self.killing = False
        self.down_at: float | None = None  # when `down` answered, on the monotonic clock

    # -- the loop ---------------------------------------------------------------------

    def run(self, up_values: "dict[str, Any]") -> int:
        """Subscribe, start the stack, print until it ends; the exit code."""
        feed = Feed(self.config_path, self._deliver, lambda gone: self.inbox.put(("lost", gone)))
        feed.logs = tuple(self.names)
        threading.Thread(target=feed.run, name="attach-feed", daemon=True).start()
        previous = {s: signal.signal(s, self._signalled) for s in SIGNALS}
        try:
            if not self._subscribed():
                return KILLED  # interrupted before anything started
            self._send("up", ("up", up_values))
            while True:
                try:
                    kind, item = self.inbox.get(timeout=TICK)
                except queue.Empty:
                    code = self._stopped() if self.down_at is not None else None
                else:
                    code = self._take(kind, item)
                if code is not None:
                    return code
        finally:
            feed.stop_following()
            for number, handler in previous.items():
                signal.signal(number, handler)

    def _subscribed(self) -> bool:
        """Wait (bounded) for the stream's first snapshot, so no output of the stack is
        missed; False when interrupted meanwhile."""
        from procler.errors import SupervisorUnavailable

        deadline = time.monotonic() + FIRST_SNAPSHOT
        while (left := deadline - time.monotonic()) > 0:
            try:
                kind, item = self.inbox.get(timeout=left)
            except queue.Empty:
                break
            if kind == "signal":
                return False
            if kind == "event" and item["type"] == "snapshot":
                self._snapshot(item)
                return True
        raise SupervisorUnavailable(
            f"the event stream sent nothing within {FIRST_SNAPSHOT:g}s: the stack was not started",
            suggestion="see `procler daemon status` and `procler daemon logs`, then retry",
        )

    def _deliver(self, message: "dict[str, Any]") -> None:
        self.inbox.put(("event", message))

    def _signalled(self, signum: int, frame: "Any") -> None:
        self.inbox.put(("signal", signum))

    def _send(self, kind: str, *commands: "tuple[str, dict[str, Any]]") -> None:
        """Send commands in a thread, one after the other until one fails; the last
        answer comes back as (kind, Raw)."""

        def ask() -> None:
            answer = Raw("", 0)
            for command, values in commands:
                answer = self._ask(command, values)
                if answer.exit_code != 0:
                    break
            self.inbox.put((kind, answer))

        threading.Thread(target=ask, name=f"attach-{kind}", daemon=True).start()

    def _ask(self, command: str, values: "dict[str, Any]") -> Raw:
        """One command's answer. `up` starts a supervisor if none runs (as `up` does); for
        the others, no supervisor means nothing of the project runs (its sentinel stopped
        it all): an empty success. A failure is an envelope too, never raised."""
        from agentcli.envelope import dumps
        from procler.wire import NotRunning

        try:
            code, payload = call(self.config_path, command, values, autostart=command == "up")
        except NotRunning:
            return Raw("", 0)
        except Exception as exc:  # noqa: BLE001 - answered as an envelope, as the CLI would
            from agentcli.main import failure

            env, code = failure(exc)
            return Raw(dumps(env), code)
        return Raw(payload.decode("utf-8"), code)

    # -- what arrives -----------------------------------------------------------------

    def _take(self, kind: str, item: "Any") -> "int | None":
        """Act on one message; the exit code once the session is over."""
        if kind == "event":
            return self._event(item)
        if kind == "signal":
            self._interrupt()
        elif kind == "lost" and item:
            self._say("the supervisor went away; waiting for it to come back (Ctrl-C ends this)")
            if self.stopping:
                return self._over()
        elif kind == "up":
            return self._started(item)
        elif kind == "down" and not self.killing:  # after a kill, its own answer ends it
            if item.exit_code != 0:
                emit_text(item.text)
                return int(item.exit_code)
            self.down_at = time.monotonic()
            return self._stopped()
        elif kind == "killed":
            self._say("the stack is killed")
            return KILLED
        return None

    def _event(self, message: "dict[str, Any]") -> "int | None":
        kind = message["type"]
        if kind == "snapshot":
            self._snapshot(message)
        elif kind == "log" and message["name"] in self.statuses:
            write_stdout(self.lines.output(message))
        elif kind == "status" and message["name"] in self.statuses:
            write_stdout(self.lines.status(message))
            self.statuses[message["name"]] = message["to"]
            if message["to"] == "failed" and self.failed is None:
                self.failed = message["name"]
            if self.down_at is not None:
                return self._stopped()
            if self.up_done and not self.stopping and self._all_at_rest():
                self._say("every process has ended")
                return self._over()
        elif kind in ("gap", "dropped"):
            self._say(f"some events were missed ({kind}): output came faster than shown")
        return None

    def _snapshot(self, message: "dict[str, Any]") -> None:
        followed = set(self.names)
        for row in message["processes"]:
            if row["name"] in followed:
                self.statuses[row["name"]] = row["status"]

    def _started(self, answer: Raw) -> "int | None":
        if answer.exit_code != 0:  # the error stays an envelope; what started is stopped
            emit_text(answer.text)
            self.up_code = answer.exit_code
            self._stop("up failed: stopping what it started")
            return None
        self.up_done = True
        self._say(f"the stack is up ({len(self.names)} processes); Ctrl-C stops it")
        if not self.stopping and self._all_at_rest():  # every one ended before up answered
            self._say("every process has ended")
            return self._over()
        return None

    def _interrupt(self) -> None:
        if not self.stopping:
            self._stop(
                "stopping the stack: dependents first, each with its stop signal and "
                "timeout (Ctrl-C again kills it)"
            )
        elif not self.killing:
            self.killing = True
            self._say("killing the stack")
            if self.namespace is None:
                self._send("killed", ("stop", {"name": None, "all": True, "kill": True}))
            else:
                self._send("killed", *(("stop", {"name": n, "kill": True}) for n in self.names))

    def _stop(self, why: str) -> None:
        self.stopping = True
        self._say(why)
        if self.namespace is None:
            self._send("down", ("down", {}))
        else:
            self._send("down", ("namespace stop", {"name": self.namespace}))

    # -- the end ----------------------------------------------------------------------

    def _stopped(self) -> "int | None":
        """After `down` answered: the exit code once the stream showed every process at
        rest (its last status lines printed), or LAST_LINES seconds later."""
        shown = all(self.statuses.get(n) in AT_REST for n in self.names)
        if not shown and self.down_at is not None and time.monotonic() < self.down_at + LAST_LINES:
            return None
        self._say("the stack is stopped")
        return self._over()

    def _all_at_rest(self) -> bool:
        """Every process followed is at rest: asked of the supervisor, since the stream's
        messages may still be on their way."""
        if any(self.statuses.get(n) not in AT_REST for n in self.names):
            return False
        answer = self._ask("status", self._status_values())
        if answer.exit_code != 0:
            return False
        if not answer.text:
            return True  # no supervisor: nothing runs
        import json

        rows = json.loads(answer.text)["data"]["processes"]
        return all(row["status"] in AT_REST for row in rows)

    def _over(self) -> int:
        """The exit code: the up error's, else the first failed process's, else 0."""
        if self.up_code:
            return self.up_code
        if self.failed is None:
            return 0
        answer = self._ask("status", {**self._status_values(), "name": self.failed})
        import json

        row = json.loads(answer.text).get("data") if answer.text and answer.exit_code == 0 else None
        last = (row or {}).get("last_exit") or {}
        if last.get("code"):
            return int(last["code"])
        return 128 + int(last["signal"]) if last.get("signal") else 1

    def _status_values(self) -> "dict[str, Any]":
        return {"name": None, "tag": [], "namespace": self.namespace}

    def _say(self, text: str) -> None:
        write_stdout(self.lines.note(text))
