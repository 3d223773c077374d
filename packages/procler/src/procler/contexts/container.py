"""ContainerContext: processes in containers, through the docker SDK against a real engine
that speaks the Docker API (Docker; Podman's compatible service), named by its ContainerKind.

Three kinds (see `kind_of`): `image` -> Procler creates and owns a labelled container
(kept when the supervisor dies, re-adopted by the next one); `container` + `command` ->
exec in an existing container; `container` alone -> start/stop that container.
Engine access (threads, timeouts, error mapping) is in EngineClient. Nothing is pulled.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Mapping
from typing import Any

from procler import states
from procler.config.model import ProcessSpec
from procler.contexts.base import ExecutionContext, ExitInfo, RunningProcess, signal_number
from procler.contexts.container_engine import EngineClient
from procler.contexts.container_run import (
    LABEL_PROCESS,
    LABEL_PROJECT,
    OWNER_KEY,
    RUN_ID_KEY,
    ContainerRun,
    binds,
    command_of,
    container_env,
    kill_orphaned_execs,
    kind_of,
    managed_name,
    normalised_status,
    owns_host_pid,
)
from procler.contexts.container_stream import (
    OpenedInThread,
    StdoutFrames,
    engine_time,
    merged_logs,
)
from procler.errors import ImageNotFound, StartFailed

PID_WAIT = 2.0  # bound on waiting for an exec's host pid to be known


class ContainerContext(EngineClient, ExecutionContext):
    # -- starting -------------------------------------------------------------------------

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        kind = kind_of(spec)
        if kind == "exec":
            return await self._start_exec(spec, env, f"{spec.name}.{run}.{os.urandom(6).hex()}")
        if kind == "image":
            ident = await self._call(self._create_owned, spec, env, run)
        else:
            assert spec.container_spec is not None and spec.container_spec.container
            ident = (await self._call(self._inspect, spec.container_spec.container, spec))["Id"]
        return await self._run_container(
            spec, ident, since=None if kind == "image" else time.time()
        )

    def _create_owned(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> str:
        import docker.errors

        assert spec.container_spec is not None and spec.container_spec.image
        api, image = self._api(), spec.container_spec.image
        try:
            api.inspect_image(image)
        except docker.errors.NotFound:
            raise ImageNotFound(
                f"{spec.name}: image {image!r} is not on this engine (Procler never pulls)",
                data={"name": spec.name, "image": image},
            ) from None
        except docker.errors.APIError as exc:
            if not exc.is_client_error():
                raise
            raise ImageNotFound(
                f"{spec.name}: the engine refused the image name {image!r}: {exc.explanation}",
                suggestion=f"fix the image name (`{self.kind.cli} images` lists the local ones)",
                data={"name": spec.name, "image": image},
            ) from None
        self.remove_owned(spec.name)  # a previous run's container: each run gets a fresh one
        network = spec.container_spec.network_mode
        ports = {f"{p}/tcp": ("127.0.0.1", p) for p in spec.ports} if network != "host" else {}
        host_config = api.create_host_config(
            network_mode=network, binds=binds(spec), port_bindings=ports or None
        )
        created = api.create_container(
            image,
            command=command_of(spec),
            name=managed_name(self.root, spec.name),
            environment=container_env(spec, env, owned=True),
            labels={LABEL_PROJECT: self.root, LABEL_PROCESS: spec.name, "procler.run": str(run)},
            host_config=host_config,
            ports=list(spec.ports) or None,
            stop_signal=signal.Signals(signal_number(spec.stop_signal)).name,
        )
        return str(created["Id"])

    async def _run_container(
        self, spec: ProcessSpec, ident: str, since: float | None, start: bool = True
    ) -> ContainerRun:
        """Start the container (a no-op when it runs) and follow its exit and logs."""
        await self._call(self._api)
        exited = self.watcher.expect(ident)  # before it starts: no exit can be missed
        try:
            if start:
                await self._call(self._start_container, spec, ident)
            info = await self._call(self._inspect, ident, spec)
        except BaseException:
            self.watcher.resolve(ident, ExitInfo(None))  # nobody waits for this run
            raise
        if not info["State"]["Running"]:
            self.watcher.resolve(ident, ExitInfo(info["State"]["ExitCode"]))
        proc = ContainerRun(self._target(spec, info), self.kind, info["State"]["Pid"], exited)
        proc.started_at = engine_time(info["State"].get("StartedAt", ""))
        tty = bool(info["Config"].get("Tty"))
        proc.follow_logs(OpenedInThread(lambda: self._log_stream(ident, since, tty)))
        return proc

    def _log_stream(self, ident: str, since: float | None, tty: bool) -> Any:
        """Frames of (stream, bytes); a tty container has a single raw stream: stdout."""
        if not tty:
            return merged_logs(self._api(), ident, since)
        raw = self._api().logs(ident, stream=True, follow=True, timestamps=True, since=since)
        return StdoutFrames(raw)

    def _start_container(self, spec: ProcessSpec, ident: str) -> None:
        import docker.errors

        try:
            self._api().start(ident)
        except docker.errors.APIError as exc:
            raise StartFailed(
                f"{spec.name}: the engine refused to start the container: {exc.explanation}",
                suggestion=f"read the engine's message; `{self.kind.cli} inspect` shows the "
                "container",
                data={"name": spec.name, "status": "failed"},
            ) from None

    async def _start_exec(
        self, spec: ProcessSpec, env: Mapping[str, str], run_id: str
    ) -> ContainerRun:
        import docker.errors

        assert spec.container_spec is not None and spec.container_spec.container
        info = await self._call(self._inspect, spec.container_spec.container, spec)
        if not info["State"]["Running"]:
            raise StartFailed(
                f"{spec.name}: container {spec.container_spec.container!r} is "
                f"{info['State']['Status']}, not running",
                suggestion=f"start it (`{self.kind.cli} start {spec.container_spec.container}`, or a procler "
                "process with only `container:`), then start this process again",
                data={"name": spec.name, "status": "failed"},
            )
        exec_env = {
            **container_env(spec, env),
            RUN_ID_KEY: run_id,
            OWNER_KEY: f"{self.root}:{spec.name}",
        }
        try:
            created = await self._engine(
                "exec_create", info["Id"], spec.argv(), environment=exec_env
            )
        except docker.errors.APIError as exc:
            raise StartFailed(
                f"{spec.name}: {self.kind.cli} exec refused: {exc.explanation}"
            ) from None
        exec_id = str(created["Id"])
        exited = self.watcher.expect(exec_id)
        stream = await self._engine("exec_start", exec_id, stream=True, demux=True)
        pid = await self._exec_pid(exec_id)
        proc = ContainerRun(self._target(spec, info), self.kind, pid, exited, exec_id, run_id)
        proc.follow_exec(stream)
        return proc

    async def _exec_pid(self, exec_id: str) -> int | None:
        """The exec's host pid: known a moment after exec_start returns."""
        deadline = time.monotonic() + PID_WAIT
        while time.monotonic() < deadline:
            state = await self._engine("exec_inspect", exec_id)
            if state["Pid"] or (not state["Running"] and state["ExitCode"] is not None):
                return int(state["Pid"]) or None
            await asyncio.sleep(0.01)
        return None

    # -- signals and stopping -------------------------------------------------------------

    async def signal(self, proc: RunningProcess, signum: int) -> None:
        import docker.errors

        assert isinstance(proc, ContainerRun)
        if proc.exec_id is None:
            with contextlib.suppress(docker.errors.APIError):  # it already stopped
                await self._engine("kill", proc.target.container_id, signum)
        elif owns_host_pid(proc.pid, proc.run_id):
            proc.kill_host_processes(signum)
        else:
            await self._signal_inside(proc, signum)

    async def _signal_inside(self, proc: ContainerRun, signum: int) -> None:
        """A remote engine: signal the run's processes from inside the container."""
        script = (
            f"for d in /proc/[0-9]*; do grep -qs '{RUN_ID_KEY}={proc.run_id}' $d/environ "
            f"&& kill -{signum} ${{d#/proc/}}; done"
        )
        ident = await self._engine(
            "exec_create", proc.target.container_id, ["/bin/sh", "-c", script]
        )
        await self._engine("exec_start", ident["Id"])

    async def stop(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        try:
            info = await self.escalate(proc, signum, timeout)
        except TimeoutError:  # no exit event (removed behind our back?): ask the engine
            assert isinstance(proc, ContainerRun)
            ident = proc.exec_id or proc.target.container_id
            ended: ExitInfo | None = await self._call(self._exit_of, ident)
            info = ended or ExitInfo(None)
            self.watcher.resolve(ident, info)
        await self.reap_leftovers(proc)
        return info

    async def reap_leftovers(self, proc: RunningProcess) -> int:
        """After an exec'd command ended: kill what it left in the container."""
        assert isinstance(proc, ContainerRun)
        if proc.exec_id is None:
            return 0  # a stopped container has nothing left running
        return proc.kill_host_processes(signal.SIGKILL)

    # -- surviving the supervisor ---------------------------------------------------------

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        """The running container of a previous supervisor, followed again; exec'd runs are
        killed instead (their output went to the dead supervisor) and started afresh."""
        kind = kind_of(spec)
        if kind == "exec":
            await asyncio.to_thread(kill_orphaned_execs, self.root, spec.name)
            return None
        if kind == "image":
            owned = await self._call(self.running_owned, spec.name)
            if owned is None:
                return None
            ident = owned
        else:
            assert spec.container_spec is not None and spec.container_spec.container
            info = await self._call(self._inspect, spec.container_spec.container, spec)
            if normalised_status(info["State"]) != states.RUNNING:
                return None  # e.g. restarting (backoff): started afresh, as after any loss
            ident = str(info["Id"])
        return await self._run_container(spec, ident, since=time.time(), start=False)

    async def forget(self, spec: ProcessSpec) -> list[str]:
        """Remove the containers Procler created for a process whose definition is gone."""
        if kind_of(spec) != "image":
            return []  # exec runs and existing containers are not ours to remove
        return await self._call(self.remove_owned, spec.name)

    # -- health ---------------------------------------------------------------------------

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        """Run the check inside the process's container; exit 0 is healthy."""
        if kind_of(spec) == "image":
            owned = await self._call(self.running_owned, spec.name)
            if owned is None:
                return False, "no running container"
            ident = owned
        else:
            assert spec.container_spec is not None and spec.container_spec.container
            ident = spec.container_spec.container
        exec_env = container_env(spec, env)
        created = await self._engine(
            "exec_create", ident, ["/bin/sh", "-c", command], environment=exec_env
        )
        probe = asyncio.ensure_future(self._engine("exec_start", created["Id"]))
        try:
            out = await asyncio.wait_for(asyncio.shield(probe), timeout)
        except TimeoutError:
            pid = (await self._engine("exec_inspect", created["Id"]))["Pid"]
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            probe.cancel()
            return False, f"exec timed out after {timeout:g}s"
        code = (await self._engine("exec_inspect", created["Id"]))["ExitCode"]
        text = out.decode("utf-8", "replace").strip() if isinstance(out, bytes) else ""
        return code == 0, f"exit {code}: {text}"[:200]
