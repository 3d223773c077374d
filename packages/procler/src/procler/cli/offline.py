"""Answers from the state on disk when no supervisor runs (see procler.cli.client.forward_if_running).

No supervisor means nothing of the project runs: its sentinel stopped what the last one
started. So `status` is each process's saved state with status `stopped`, and `stop` or
`down` only records that the processes should stay stopped. When the last supervisor
died with runs still open, the disk cannot say what became of them: the answer is
declined (None), and a new supervisor records them as lost and restores what should run.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from typing import Any

from procler import project
from procler.config.graph import DependencyGraph
from procler.config.model import ProjectConfig
from procler.errors import StateDirUnwritable
from procler.selection import (
    group_list,
    group_members,
    in_namespaces,
    instances,
    named,
    one_or_rolled,
    split_namespaces,
    stop_answer,
    stop_levels,
    tagged,
)
from procler.states import NEVER_RAN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from procler.supervisor.schedule_store import ScheduleStore
    from procler.supervisor.state_store import StateStore

Answer = Callable[[dict[str, Any]], Any]


class LockBusy(Exception):
    """A supervisor holds the lock: it is running or starting, so ask it instead."""


class Unreadable(Exception):
    """The state database is damaged (sqlite3.DatabaseError): the answer is declined, and a
    supervisor reports what is wrong with it (its log, its error)."""


@contextlib.contextmanager
def holding_lock(root: str) -> Iterator[None]:
    """Hold the supervisor lock while the state on disk is read and written, so that no
    supervisor starts meanwhile; LockBusy when one (running or starting) holds it."""
    state = usable_state_dir(root)
    try:
        fd = project.open_lock(root)
    except OSError as exc:
        raise StateDirUnwritable(
            f"cannot use the state directory {state}: {exc.strerror}"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LockBusy(project.lock_path(root)) from None
        yield
    finally:
        os.close(fd)  # releases the lock


def usable_state_dir(root: str) -> str:
    """The project's state directory, created if needed (StateDirUnwritable if it cannot be)."""
    state = project.state_dir(root)
    try:
        os.makedirs(state, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise StateDirUnwritable(
            f"cannot use the state directory {state}: {exc.strerror}"
        ) from None
    return state


def answer(command: str, config_path: str, values: dict[str, Any]) -> Any:
    """The command's answer from disk, or None when the disk cannot answer it (LockBusy
    when a supervisor holds the lock)."""
    return DiskAnswers(config_path).table()[command](values)


class DiskAnswers:
    """One function per command declared IF_RUNNING, and `daemon stop` (a test checks the
    table covers them)."""

    def __init__(self, config_path: str) -> None:
        self.config_path = config_path
        self.root = project.project_root(config_path)
        self.warning: dict[str, Any] | None = None
        self._config: ProjectConfig | None = None

    def table(self) -> dict[str, Answer]:
        return {
            "status": self.status,
            "stop": self.stop,
            "down": self.down,
            "group stop": self.group_stop,
            "group status": self.group_status,
            "group list": self.group_list,
            "history": self.history,
            "reload": self.reload,
            "daemon stop": self.daemon_stop,
            "namespace stop": self.namespace_stop,
        }

    def config(self) -> ProjectConfig:
        """The config, or while its file is invalid the last valid one (with a warning)."""
        if self._config is None:
            from procler.config.last_valid import load

            usable_state_dir(self.root)  # runtime definitions and the copy live there
            self._config, self.warning = load(self.config_path)
        return self._config

    def _warned(self, result: dict[str, Any] | None) -> dict[str, Any] | None:
        if result is None or self.warning is None:
            return result
        return {**result, "config_warning": self.warning}

    def _known(self, name: str) -> list[str]:
        """NAME's processes: itself, or each instance of a process with replicas."""
        return instances(self.config(), name)

    def _stop_order(self, names: list[str], with_dependents: bool) -> list[str]:
        graph = DependencyGraph.from_config(self.config())
        return [n for level in stop_levels(graph, names, with_dependents) for n in level]

    @contextlib.contextmanager
    def _store(self) -> Iterator[StateStore | None]:
        """The state database, under the supervisor lock (None: nothing ever ran); Unreadable
        when it is damaged. SQLite and the store are imported only when there is one."""
        path = os.path.join(project.state_dir(self.root), "state.db")
        with holding_lock(self.root):
            if not os.path.exists(path):
                yield None
                return
            import sqlite3
            from pathlib import Path

            from procler.supervisor.state_store import StateStore

            try:
                store = StateStore(Path(path))
            except sqlite3.DatabaseError:
                raise Unreadable(path) from None
            try:
                yield store
            except sqlite3.DatabaseError:
                raise Unreadable(path) from None
            finally:
                store.close()

    def _statuses(
        self, names: list[str], stopping: bool = False, end_session: bool = False
    ) -> list[dict[str, Any]] | None:
        """Each process's status (None if runs are open); stopping records desired stopped;
        end_session (`down`) forgets the one-shots completed in this session."""
        from procler.supervisor.status import resting_status

        specs = self.config().processes
        out = []
        try:
            with self._store() as store:
                if store is not None and store.open_runs():
                    return None
                if end_session and store is not None:
                    store.end_session()
                schedules: ScheduleStore | None = None  # opened at the first schedule
                for name in names:
                    saved = dict(NEVER_RAN) if store is None else store.process(name)
                    if stopping and store is not None:
                        saved["desired"] = "stopped"
                        store.save_process(
                            name,
                            "stopped",
                            saved["runs"],
                            saved["restarts"],
                            saved["last_exit"],
                            saved["completed"],
                        )
                        store.event(name, "stopped", "stopped", "desired stopped (no supervisor)")
                    # a one-shot completed in this session with this definition stays exited
                    done = saved["completed"] is not None
                    if done:  # hashlib and the fingerprint are loaded only then
                        from procler.config.fingerprint import spec_hash

                        done = saved["completed"] == spec_hash(specs[name])
                    row = resting_status(specs[name], "exited" if done else "stopped", saved)
                    schedule = specs[name].schedule
                    if schedule is not None and store is not None:
                        from procler.supervisor.schedule_store import summary

                        schedules = schedules or self._schedules(store)
                        row["schedule"] = summary(schedules, name, schedule, None)
                    out.append({**row, "already_stopped": True} if stopping else row)
        except Unreadable:
            return None
        return out

    @staticmethod
    def _schedules(store: StateStore) -> ScheduleStore:
        from procler.supervisor.schedule_store import ScheduleStore

        db = store.db
        return ScheduleStore(lambda: db)

    # -- the commands ---------------------------------------------------------------------

    def status(self, values: dict[str, Any]) -> Any:
        if values.get("name"):
            found = self._statuses(self._known(values["name"]))
            rolled = None if found is None else one_or_rolled(self.config(), values["name"], found)
            return self._warned(rolled)
        found = self._statuses(tagged(self.config(), values))
        return self._warned(None if found is None else {"processes": found})

    def stop(self, values: dict[str, Any], end_session: bool = False) -> Any:
        if values.get("all"):
            names = self._stop_order(list(self.config().processes), False)
        elif values.get("with_dependents"):
            names = self._stop_order(self._known(named(values, "stop", self.config())), True)
        else:
            names = self._known(named(values, "stop", self.config()))
        found = self._statuses(names, stopping=True, end_session=end_session)
        answer = None if found is None else stop_answer(values, found, self.config())
        return self._warned(answer)

    def namespace_stop(self, values: dict[str, Any]) -> Any:
        """Nothing runs, so nothing is needed by another namespace: all are recorded stopped."""
        chosen = in_namespaces(self.config(), split_namespaces(values["name"]))
        found = self._statuses(self._stop_order(chosen, False), stopping=True)
        return self._warned(
            None if found is None else {"namespace": values["name"], "processes": found}
        )

    def down(self, values: dict[str, Any]) -> Any:
        return self.stop({**values, "all": True}, end_session=True)

    def group_stop(self, values: dict[str, Any]) -> Any:
        members = group_members(self.config(), values["name"])
        found = self._statuses(self._stop_order(members, False), stopping=True)
        return self._warned(
            None if found is None else {"group": values["name"], "processes": found}
        )

    def group_status(self, values: dict[str, Any]) -> Any:
        found = self._statuses(group_members(self.config(), values["name"]))
        return self._warned(
            None if found is None else {"group": values["name"], "processes": found}
        )

    def group_list(self, values: dict[str, Any]) -> Any:
        return self._warned(group_list(self.config()))

    def history(self, values: dict[str, Any]) -> Any:
        """Read from the event table as a supervisor reads it (runs left open by a dead
        supervisor are simply not ended yet)."""
        from procler.supervisor.history import checked_limit, history_named

        config = self.config()
        limit = checked_limit(values)
        try:
            with self._store() as store:
                return self._warned(history_named(config, store, values["name"], limit))
        except Unreadable:
            return None

    def reload(self, values: dict[str, Any]) -> Any:
        from procler.config.last_valid import require_valid

        usable_state_dir(self.root)
        require_valid(self.config_path)  # nothing to reload, but a broken file is said
        return {"running": False}

    def daemon_stop(self, values: dict[str, Any]) -> Any:
        """Nothing runs; the session ends (the next `up` runs the one-shots again)."""
        try:
            with self._store() as store:
                if store is not None:
                    store.end_session()
        except Unreadable:
            pass  # nothing readable to forget
        return {"running": False, "stopped_processes": []}
