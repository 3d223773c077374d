"""The runtimes' Host: what each ProcessRuntime needs from the supervisor around it.

It gives a run its environment, persists every transition, tells the sentinel which
process groups exist, and sends the output to the log.
"""

from __future__ import annotations

import logging
import os

from procler.config.model import ProcessSpec
from procler.contexts.base import OutputBatch, RunningProcess
from procler.supervisor.clock import Clock
from procler.supervisor.output_log import OutputLog
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.sentinel_link import Sentinel
from procler.supervisor.store import StateStore

log = logging.getLogger("procler.supervisor")


def base_environment(store: StateStore) -> dict[str, str]:
    """The environment captured when the project's first supervisor started."""
    saved = store.get_meta("base_env")
    if saved is None:
        saved = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
        store.set_meta("base_env", saved)
    return dict(saved)


class RuntimeHost:
    def __init__(
        self, root: str, store: StateStore, clock: Clock, sentinel: Sentinel, output: OutputLog
    ) -> None:
        self.root = root
        self.store = store
        self.clock = clock
        self.sentinel = sentinel
        self.output_log = output
        self.base_env = base_environment(store)

    def environment(self, spec: ProcessSpec) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(spec.env)
        env["PROCLER_PROCESS_NAME"] = spec.name
        env["PROCLER_PROJECT_ROOT"] = self.root
        return env

    def record(self, runtime: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        log.info("%s: %s -> %s (%s)", runtime.name, src, dst, reason)
        self.store.event(runtime.name, src, dst, reason)
        self.store.save_process(
            runtime.name, runtime.desired, runtime.run, runtime.restarts, runtime.last_exit
        )

    def spawned(self, runtime: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_started(runtime.name, runtime.run, proc.pid, self.clock.time())
        if runtime.spec.context == "local" and proc.pid is not None:
            self.sentinel.tell(f"+{proc.pid}")

    def reaped(self, runtime: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_ended(runtime.name, runtime.run, self.clock.time())
        if runtime.spec.context == "local" and proc.pid is not None:
            self.sentinel.tell(f"-{proc.pid}")

    def output(self, runtime: ProcessRuntime, run: int, batch: OutputBatch) -> None:
        self.output_log.append(runtime.name, run, batch)
