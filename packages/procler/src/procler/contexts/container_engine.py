"""Access to a container engine for ContainerContext: the client, error mapping, lookups.

The SDK blocks, so every call runs in a thread, each bounded by the client's timeout:
an unreachable engine is its kind's `unavailable` answer (DOCKER_UNAVAILABLE,
PODMAN_UNAVAILABLE), never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from procler import states
from procler.config.model import ProcessSpec
from procler.contexts.base import ExitInfo
from procler.contexts.container_kind import ContainerKind
from procler.contexts.container_run import (
    LABEL_PROCESS,
    LABEL_PROJECT,
    Target,
    kind_of,
    normalised_status,
)
from procler.contexts.container_stream import ExitWatcher
from procler.errors import ContainerNotFound

T = TypeVar("T")
CLIENT_TIMEOUT = 10.0  # seconds for any one engine call (streams are not bounded by it)
POOL_SIZE = 64  # connections to the engine: each followed stream holds one


def socket_unanswered(url: str) -> bool:
    """A unix socket URL that nobody answers on: its file is missing, or left behind by an
    engine that died (the connect is refused). Checked with a socket of our own, closed
    at once, because the SDK leaks the socket of a failed unix connect."""
    if not url.startswith("unix://"):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(CLIENT_TIMEOUT)
        try:
            probe.connect(url[len("unix://") :])
        except OSError:
            return True
    return False


class EngineClient:
    """One project's connection to an engine, shared by all its processes of that kind."""

    def __init__(self, root: str, kind: ContainerKind, base_url: str | None = None) -> None:
        self.root = root
        self.kind = kind
        self.base_url = base_url  # None: where the kind says (its variables, its sockets)
        self._client: Any = None
        self.watcher = ExitWatcher(self._events, kind.exit_events)
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

            url = self.base_url or self.kind.engine_url()
            if socket_unanswered(url):
                raise docker.errors.DockerException(f"no {self.kind.cli} engine answers at {url}")
            kwargs: dict[str, Any] = {"timeout": CLIENT_TIMEOUT, "max_pool_size": POOL_SIZE}
            if self.base_url is None and self.kind.sdk_env:
                self._client = docker.from_env(**kwargs).api
            else:
                self._client = docker.APIClient(base_url=url, **kwargs)
        self.watcher.subscribe()
        return self._client

    def _events(self, since: float | None) -> Any:
        filters = {"type": "container", "event": list(self.kind.exit_filters)}
        return self._client.events(decode=True, filters=filters, since=since)

    async def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking engine call in a thread; connection trouble -> the kind's
        `unavailable` answer."""
        import docker.errors
        import requests.exceptions

        def guarded() -> T:
            try:
                return fn(*args, **kwargs)
            except docker.errors.APIError:
                raise
            except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
                unavailable = self.kind.unavailable
                assert unavailable is not None  # every container kind declares one
                where = self.kind.host_env[0]
                raise unavailable(
                    f"cannot reach the {self.kind.cli} engine: {exc}",
                    suggestion=self.kind.start_hint,
                    data={where.lower(): self.base_url or os.environ.get(where)},
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
                suggestion=f"create it first (`{self.kind.cli} ps -a` lists containers) or fix "
                + (
                    f"processes.{spec.name}.{self.kind.name}.container"
                    if spec.source == "config"
                    else f"the definition: `procler define {spec.name} --container NAME --force`"
                ),
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

    def running_owned(self, name: str) -> str | None:
        """The id of the running container Procler owns for this process, if any."""
        running = [
            c["Id"]
            for c in self.labelled(name)
            if normalised_status({"Status": c["State"]}) == states.RUNNING
        ]
        return str(running[0]) if running else None

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
