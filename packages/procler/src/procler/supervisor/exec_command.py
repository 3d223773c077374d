"""One-off commands in the project's environment (the environment captured at the first start,
plus the config's vars), locally or in a running container: `procler exec` and recipe `exec`
steps both run through `run_command`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Literal

from agentcli.errors import UsageError
from procler.config.model import DockerSpec, ProcessSpec
from procler.contexts.base import OutputBatch, RunningProcess
from procler.errors import CommandFailed, Timeout
from procler.supervisor.core import Supervisor
from procler.supervisor.oneshot import run_once
from procler.supervisor.sentinel_link import register, unregister


async def exec_command(sup: Supervisor, values: dict[str, Any]) -> dict[str, Any]:
    """`procler exec`: the command's values taken from the CLI."""
    return await run_command(
        sup,
        values["cmd"],
        context=values.get("context"),
        container=values.get("container"),
        cwd=values.get("cwd"),
        timeout=float(values.get("timeout") or 60.0),
    )


async def run_command(
    sup: Supervisor,
    command: str,
    *,
    context: str | None,
    container: str | None,
    cwd: str | None,
    timeout: float,
    on_output: Callable[[OutputBatch], None] | None = None,
) -> dict[str, Any]:
    """Run it to its end or its timeout; a non-zero exit is COMMAND_FAILED and an overrun
    TIMEOUT, each with the output in its data."""
    config = sup.config()
    where: Literal["local", "docker"] = "docker" if container or context == "docker" else "local"
    if where == "docker" and not container:
        raise UsageError(
            "--context docker needs --container NAME", suggestion="name the running container"
        )
    spec = ProcessSpec(
        name="exec",
        command=command,
        cwd=os.path.normpath(os.path.join(str(config.root), cwd or ".")),
        env=config.vars,
        context=where,
        docker=DockerSpec(container=container) if container else None,
    )
    spawned: list[RunningProcess] = []

    def track(proc: RunningProcess) -> None:  # the sentinel kills it too if this supervisor dies
        spawned.append(proc)
        register(sup.sentinel, proc, where == "local")

    try:
        result = await run_once(
            sup.context_for(spec),
            spec,
            sup.host.environment(spec),
            timeout,
            track,
            on_output=on_output,
        )
    finally:
        for proc in spawned:
            unregister(sup.sentinel, proc)
    data = {"command": command, "context": where, **result.as_dict()}
    if result.timed_out:
        raise Timeout(
            f"`{command}` did not finish within {timeout:g}s; it was stopped (TERM, then KILL)",
            suggestion="give it more time with --timeout, or run it as a process",
            data=data,
        )
    if result.exit_code != 0:
        ended = (
            f"exited with {result.exit_code}"
            if result.signal is None
            else f"was killed by signal {result.signal}"
        )
        raise CommandFailed(f"`{command}` {ended}", data=data)
    return data
