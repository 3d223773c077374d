"""`watch:`: file changes that restart a process (or signal it, or run a command).

One inotify watcher (watchfiles' RustNotify) covers the folders of every watched process
(and one more the folders watched without their subfolders, see watched_folders); each
runs in a thread of its own, which sleeps in the kernel's wait between checks and
hands each batch of changes to the loop. Each process's watch keeps the files that
concern it (watch_filter.PathFilter) and fires once they have been quiet for its
`debounce`, so a burst is one trigger. What a trigger does, and the flap detector, are in
watch_actions.py. A watch acts only while its process should run: `stop` disarms it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from typing import Any

from watchfiles._rust_notify import RustNotify

from procler import states
from procler.config.model import ProcessSpec, ProjectConfig
from procler.supervisor.clock import iso
from procler.supervisor.host import background
from procler.supervisor.watch_actions import Owner, Watch, act
from procler.supervisor.watch_filter import PathFilter, gitignore, watched_folders

log = logging.getLogger("procler.supervisor")
STEP_MS = 200  # the watcher thread looks for changes this often: 0.03% of a core idle
GROUP_MS = 1600  # a batch of changes is handed over after at most this long
LONGEST_BURST = 10  # a trigger waits at most this many debounces, however busy the files


class Watcher:
    def __init__(self, sup: Owner) -> None:
        self.sup = sup
        self.watches: dict[str, Watch] = {}
        self.specs: dict[str, ProcessSpec] = {}  # the config applied last (for cascade)
        self._roots: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        self._stop = threading.Event()
        self._pumping: list[asyncio.Future[None]] = []
        # one thread for the recursive watch, one for folders watched alone
        self._threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="watch")
        self._acting: set[asyncio.Future[Any]] = set()

    def update(self, cfg: ProjectConfig) -> None:
        """Follow a newly applied config: a watch whose definition is the same keeps its
        state (a suspension too); the watched folders change when the globs do."""
        ignored = gitignore(str(cfg.root))
        self.specs = dict(cfg.processes)
        kept: dict[str, Watch] = {}
        for name, spec in cfg.processes.items():
            if spec.watch is None:
                continue
            old = self.watches.get(name)
            if old is not None and old.spec == spec.watch and old.filter.cwd == spec.cwd:
                kept[name] = old
            else:
                kept[name] = Watch(
                    spec.watch, PathFilter(spec.watch, spec.cwd, str(cfg.root), ignored)
                )
        for name, watch in self.watches.items():
            if kept.get(name) is not watch and watch.timer is not None:
                watch.timer.cancel()
        self.watches = kept
        roots = watched_folders({r for w in kept.values() for r in w.filter.roots()})
        if roots != self._roots:
            self._listen(roots)

    def _listen(self, roots: tuple[frozenset[str], frozenset[str]]) -> None:
        self._halt()
        self._roots = roots
        self._stop = stop = threading.Event()
        loop = asyncio.get_running_loop()
        self._pumping = []
        for recursive, folders in zip((True, False), roots, strict=True):
            if not folders:
                continue
            try:
                notify = RustNotify(sorted(folders), False, False, 300, recursive, True)
            except (OSError, RuntimeError) as exc:  # e.g. the inotify watch limit
                log.warning("cannot watch %s: %s", ", ".join(sorted(folders)), exc)
                continue
            self._pumping.append(
                loop.run_in_executor(self._threads, self._pump, notify, stop, loop)
            )

    def _pump(
        self, notify: RustNotify, stop: threading.Event, loop: asyncio.AbstractEventLoop
    ) -> None:
        """The watcher thread: batches of changes to the loop until told to stop."""
        try:
            while not stop.is_set():
                changes = notify.watch(GROUP_MS, STEP_MS, 0, stop)
                if isinstance(changes, set) and changes:
                    paths = [path for _kind, path in changes]
                    try:
                        loop.call_soon_threadsafe(self._changed, paths)
                    except RuntimeError:  # the loop closed under us
                        return
        finally:
            notify.close()

    def _halt(self) -> None:
        self._stop.set()  # the thread notices within STEP_MS; its notify closes there

    def _changed(self, paths: list[str]) -> None:
        now = self.sup.clock.monotonic()
        loop = asyncio.get_running_loop()
        for name, watch in self.watches.items():
            files = {rel for path in paths if (rel := watch.filter.wants(path)) is not None}
            if not files:
                continue
            if watch.first_seen is None:
                watch.first_seen = now
            watch.pending |= files
            if watch.timer is not None:
                watch.timer.cancel()
            latest = watch.first_seen + LONGEST_BURST * watch.spec.debounce
            delay = max(0.0, min(watch.spec.debounce, latest - now))
            watch.timer = loop.call_later(delay, self._fire, name, watch)

    def _fire(self, name: str, watch: Watch) -> None:
        files, first = sorted(watch.pending), watch.first_seen or 0.0
        watch.pending, watch.first_seen, watch.timer = set(), None, None
        if self.watches.get(name) is watch:
            background(act(self.sup, self.specs, name, watch, files, first), self._acting)

    def rearm(self, name: str) -> None:
        """A user start or restart: a suspended watch acts again."""
        watch = self.watches.get(name)
        if watch is not None:
            watch.suspended_by, watch.quick = None, 0

    def describe(self, name: str) -> dict[str, Any] | None:
        """The watch as `status` shows it; None for a process without one."""
        watch = self.watches.get(name)
        rt = self.sup.runtimes.get(name)
        if watch is None or rt is None:
            return None
        if rt.desired != states.DESIRED_RUNNING:
            state = "disarmed"  # `stop` disarms it; the next start arms it again
        else:
            state = "suspended" if watch.suspended_by is not None else "armed"
        out: dict[str, Any] = {
            "paths": list(watch.spec.paths),
            "action": watch.spec.action,
            "state": state,
            "triggers": watch.triggers,
            "last_trigger": {"at": iso(watch.last_at), "files": watch.last_files}
            if watch.last_at is not None
            else None,
        }
        if state == "suspended":
            out["suspended_by"] = watch.suspended_by
            out["why"] = (
                f"{watch.suspended_by} changed right after each of the watch's last "
                f"{watch.quick} actions: does {name} write into its own watched folder? add "
                f"it to watch.exclude; `procler restart {name}` arms the watch again"
            )
        return out

    async def close(self) -> None:
        for watch in self.watches.values():
            if watch.timer is not None:
                watch.timer.cancel()
        self.watches = {}
        self._halt()
        if self._pumping:
            await asyncio.wait(self._pumping, timeout=2.0)
        for task in list(self._acting):
            task.cancel()
        self._threads.shutdown(wait=False)
