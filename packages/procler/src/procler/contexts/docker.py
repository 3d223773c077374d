"""DockerContext: processes in Docker, through the docker SDK against a real engine.

Three kinds (see `kind_of`): `image` -> Procler creates and owns a labelled container
(kept when the supervisor dies, re-adopted by the next one); `container` + `command` ->
docker exec in an existing container; `container` alone -> start/stop that container.
The SDK blocks, so every call runs in a thread, each bounded by the client's timeout:
an unreachable engine is a DOCKER_UNAVAILABLE answer, never a hang. Nothing is pulled.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from procler.config.model import ProcessSpec
from procler.contexts.base import ExecutionContext, ExitInfo, RunningProcess
from procler.contexts.docker_run import (
    LABEL_PROCESS,
    LABEL_PROJECT,
    OWNER_KEY,
    RUN_ID_KEY,
    DockerRun,
    Target,
    binds,
    command_of,
    container_env,
    kill_orphaned_execs,
    kind_of,
    managed_name,
    owns_host_pid,
)
from procler.contexts.docker_stream import ExitWatcher, StdoutFrames, merged_logs
from procler.contexts.local import signal_number
from procler.errors import ContainerNotFound, DockerUnavailable, ImageNotFound, StartFailed

T = TypeVar("T")
CLIENT_TIMEOUT = 10.0  # seconds for any one engine call (streams are not bounded by it)
DEFAULT_SOCKET = "unix:///var/run/docker.sock"
POOL_SIZE = 64  # connections to the engine: each followed stream holds one
KILL_WAIT = 5.0  # bound on waiting for a SIGKILLed run to be reported ended
PID_WAIT = 2.0  # bound on waiting for an exec's host pid to be known


class DockerContext(ExecutionContext):
    name = "docker"

    def __init__(self, root: str, base_url: str | None = None) -> None:
        self.root = root
        self.base_url = base_url  # None: DOCKER_HOST or the default socket
        self._client: Any = None
        self.watcher = ExitWatcher(self._events)
        self.watcher.recheck = self._exit_of

    def close(self) -> None:
        """Release the engine connection and the events thread."""
        self.watcher.close()
        if self._client is not None:
            self._client.close()

    # -- engine access --------------------------------------------------------------------

    def _api(self) -> Any:
        """The low-level client, connected on first use (blocking)."""
        if self._client is None:
            import docker

            url = self.base_url or os.environ.get("DOCKER_HOST") or DEFAULT_SOCKET
            if url.startswith("unix://") and not os.path.exists(url[len("unix://") :]):
                # Fail before connecting: the SDK leaks the socket of a failed unix connect.
                raise docker.errors.DockerException(f"no Docker socket at {url}")
            kwargs: dict[str, Any] = {"timeout": CLIENT_TIMEOUT, "max_pool_size": POOL_SIZE}
            if self.base_url is None:
                self._client = docker.from_env(**kwargs).api
            else:
                self._client = docker.APIClient(base_url=self.base_url, **kwargs)
        self.watcher.subscribe()
        return self._client

    def _events(self, since: float | None) -> Any:
        filters = {"type": "container", "event": ["die", "exec_die"]}
        return self._client.events(decode=True, filters=filters, since=since)

    async def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking engine call in a thread; connection trouble -> DOCKER_UNAVAILABLE."""
        import docker.errors
        import requests.exceptions

        def guarded() -> T:
            try:
                return fn(*args, **kwargs)
            except docker.errors.APIError:
                raise
            except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
                raise DockerUnavailable(
                    f"cannot reach the Docker engine: {exc}",
                    suggestion="start dockerd (or Docker Desktop), or point DOCKER_HOST at a "
                    "running engine; `docker info` must answer",
                    data={"docker_host": self.base_url or os.environ.get("DOCKER_HOST")},
                ) from None

        return await asyncio.to_thread(guarded)

    async def _engine(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """One call of the low-level client's `method`, connecting first when needed."""
        return await self._call(lambda: getattr(self._api(), method)(*args, **kwargs))

    def _inspect(self, name: str, spec: ProcessSpec) -> dict[str, Any]:
        import docker.errors

        try:
            info: dict[str, Any] = self._api().inspect_container(name)
        except docker.errors.NotFound:
            raise ContainerNotFound(
                f"{spec.name}: no container named {name!r}",
                suggestion=f"create it first (`docker ps -a` lists containers) or fix "
                f"processes.{spec.name}.docker.container",
                data={"name": spec.name, "container": name},
            ) from None
        return info

    def _target(self, spec: ProcessSpec, info: Mapping[str, Any]) -> Target:
        return Target(
            kind_of(spec),
            str(info["Id"]),
            str(info["Name"]).lstrip("/"),
            str(info["Config"]["Image"]),
        )

    def _exit_of(self, ident: str) -> ExitInfo | None:
        """How a container or exec ended, asked directly (after a lost event stream)."""
        import docker.errors

        api = self._client
        try:
            state = api.exec_inspect(ident)
        except docker.errors.NotFound:
            try:
                state = api.inspect_container(ident)["State"]
            except docker.errors.NotFound:
                return ExitInfo(None)
        return None if state["Running"] else ExitInfo(state["ExitCode"])

    def labelled(self, name: str) -> list[dict[str, Any]]:
        """The containers Procler created for this project's process (any state)."""
        labels = [f"{LABEL_PROJECT}={self.root}", f"{LABEL_PROCESS}={name}"]
        found: list[dict[str, Any]] = self._api().containers(all=True, filters={"label": labels})
        return found

    # -- starting -------------------------------------------------------------------------

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        kind = kind_of(spec)
        if kind == "exec":
            return await self._start_exec(spec, env, f"{spec.name}.{run}.{os.urandom(6).hex()}")
        if kind == "image":
            ident = await self._call(self._create_owned, spec, env, run)
        else:
            assert spec.docker is not None and spec.docker.container
            ident = (await self._call(self._inspect, spec.docker.container, spec))["Id"]
        return await self._run_container(
            spec, ident, since=None if kind == "image" else time.time()
        )

    def _create_owned(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> str:
        import docker.errors

        assert spec.docker is not None and spec.docker.image
        api, image = self._api(), spec.docker.image
        try:
            api.inspect_image(image)
        except docker.errors.NotFound:
            raise ImageNotFound(
                f"{spec.name}: image {image!r} is not on this engine (Procler never pulls)",
                data={"name": spec.name, "image": image},
            ) from None
        self.remove_owned(spec.name)  # a previous run's container: each run gets a fresh one
        network = spec.docker.network_mode
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
    ) -> DockerRun:
        """Start the container (a no-op when it runs) and follow its exit and logs."""
        await self._call(self._api)
        exited = self.watcher.expect(ident)  # before it starts: no exit can be missed
        if start:
            await self._call(self._start_container, spec, ident)
        info = await self._call(self._inspect, ident, spec)
        if not info["State"]["Running"]:
            self.watcher.resolve(ident, ExitInfo(info["State"]["ExitCode"]))
        proc = DockerRun(self._target(spec, info), info["State"]["Pid"], exited)
        tty = bool(info["Config"].get("Tty"))
        logs = await self._call(self._log_stream, ident, since, tty)
        proc.follow_logs(logs)
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
                suggestion="read the engine's message; `docker inspect` shows the container",
                data={"name": spec.name, "status": "failed"},
            ) from None

    async def _start_exec(
        self, spec: ProcessSpec, env: Mapping[str, str], run_id: str
    ) -> DockerRun:
        import docker.errors

        assert spec.docker is not None and spec.docker.container
        info = await self._call(self._inspect, spec.docker.container, spec)
        if not info["State"]["Running"]:
            raise StartFailed(
                f"{spec.name}: container {spec.docker.container!r} is "
                f"{info['State']['Status']}, not running",
                suggestion=f"start it (`docker start {spec.docker.container}`, or a procler "
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
            raise StartFailed(f"{spec.name}: docker exec refused: {exc.explanation}") from None
        exec_id = str(created["Id"])
        exited = self.watcher.expect(exec_id)
        stream = await self._engine("exec_start", exec_id, stream=True, demux=True)
        pid = await self._exec_pid(exec_id)
        proc = DockerRun(self._target(spec, info), pid, exited, exec_id, run_id)
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

        assert isinstance(proc, DockerRun)
        if proc.exec_id is None:
            with contextlib.suppress(docker.errors.APIError):  # it already stopped
                await self._engine("kill", proc.target.container_id, signum)
        elif owns_host_pid(proc.pid, proc.run_id):
            proc.kill_host_processes(signum)
        else:
            await self._signal_inside(proc, signum)

    async def _signal_inside(self, proc: DockerRun, signum: int) -> None:
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
        await self.signal(proc, signum)
        try:
            info = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            await self.signal(proc, signal.SIGKILL)
            info = await asyncio.wait_for(proc.wait(), KILL_WAIT)
        await self.reap_leftovers(proc)
        return info

    async def reap_leftovers(self, proc: RunningProcess) -> int:
        """After an exec'd command ended: kill what it left in the container."""
        assert isinstance(proc, DockerRun)
        if proc.exec_id is None:
            return 0  # a stopped container has nothing left running
        if owns_host_pid(proc.pid, proc.run_id) or proc.pid is None:
            return proc.kill_host_processes(signal.SIGKILL)
        marker = f"{RUN_ID_KEY}={proc.run_id}".encode()
        from procler.contexts import procfs

        left = procfs.pids_with_env(marker, {os.getpid()})
        proc.kill_host_processes(signal.SIGKILL)
        return len(left)

    # -- surviving the supervisor ---------------------------------------------------------

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        """The running container of a previous supervisor, followed again; exec'd runs are
        killed instead (their output went to the dead supervisor) and started afresh."""
        kind = kind_of(spec)
        if kind == "exec":
            await asyncio.to_thread(kill_orphaned_execs, self.root, spec.name)
            return None
        if kind == "image":
            running = [
                c for c in await self._call(self.labelled, spec.name) if c["State"] == "running"
            ]
            if not running:
                return None
            ident = str(running[0]["Id"])
        else:
            assert spec.docker is not None and spec.docker.container
            info = await self._call(self._inspect, spec.docker.container, spec)
            if not info["State"]["Running"]:
                return None
            ident = str(info["Id"])
        return await self._run_container(spec, ident, since=time.time(), start=False)

    def remove_owned(self, name: str) -> list[str]:
        """Remove (forcefully) every container Procler created for this process; their ids.

        Blocking: call it from a thread. The `remove` command uses it for runtime
        definitions with an image.
        """
        removed = []
        for container in self.labelled(name):
            with contextlib.suppress(Exception):
                self._api().remove_container(container["Id"], force=True)
                removed.append(str(container["Id"]))
        return removed

    # -- health ---------------------------------------------------------------------------

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        """Run the check inside the process's container; exit 0 is healthy."""
        if kind_of(spec) == "image":
            running = [
                c for c in await self._call(self.labelled, spec.name) if c["State"] == "running"
            ]
            if not running:
                return False, "no running container"
            ident = str(running[0]["Id"])
        else:
            assert spec.docker is not None and spec.docker.container
            ident = spec.docker.container
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
