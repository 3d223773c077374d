"""The container context's pieces on their own, against each engine: parsing, status
mapping, adoption, errors."""

from __future__ import annotations

import asyncio
import gc
import signal
import socket
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.engine_fixtures import IMAGE, SESSION, TEST_LABEL, Engine
from procler_testkit.engine_helpers import commands_in, unique
from procler_testkit.fakes import FakeClock, FakeContext, FakeHost, FakeProcess
from procler_testkit.harness import wait_for

from procler import states
from procler.config.model import ContainerSpec, ProcessSpec
from procler.contexts import registry
from procler.contexts.base import ExitInfo, OutputLine, RunningProcess
from procler.contexts.container import ContainerContext
from procler.contexts.container_kind import ContainerKind
from procler.contexts.container_run import (
    ContainerRun,
    binds,
    container_env,
    kind_of,
    normalised_status,
)
from procler.contexts.container_stream import LineSplitter, parse_log_line
from procler.supervisor.runtime import ProcessRuntime


def test_parse_log_line_reads_the_engine_timestamp() -> None:
    assert parse_log_line("2026-01-02T03:04:05.250000000Z hello world") == (
        1767323045.25,
        "hello world",
    )
    assert parse_log_line("no stamp here") == (None, "no stamp here")
    assert parse_log_line("2026-13-02T03:04:05Z bad month") == (
        None,
        "2026-13-02T03:04:05Z bad month",
    )


def test_line_splitter_keeps_unfinished_lines() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"one\ntw") == ["one"]
    assert splitter.feed(b"o\r\nthree") == ["two"]
    assert splitter.flush() == ["three"]
    assert splitter.flush() == []


def test_kinds_env_and_volumes_from_the_spec() -> None:
    image = ProcessSpec(
        name="db", context="docker", container_spec=ContainerSpec(image="pg"), cwd="/proj"
    )
    exec_ = ProcessSpec(
        name="w", command="run", context="docker", container_spec=ContainerSpec(container="c")
    )
    own = ProcessSpec(name="c", context="docker", container_spec=ContainerSpec(container="c"))
    assert [kind_of(image), kind_of(exec_), kind_of(own)] == ["image", "exec", "container"]
    env = {"PATH": "/host/bin", "PROCLER_PROCESS_NAME": "db", "PROCLER_PROJECT_ROOT": "/proj"}
    spec = ProcessSpec(name="db", env=(("A", "1"),))
    assert container_env(spec, env) == {
        "PROCLER_PROCESS_NAME": "db",
        "PROCLER_PROJECT_ROOT": "/proj",
        "A": "1",
    }
    assert container_env(spec, env, owned=True) == {"PROCLER_PROCESS_NAME": "db", "A": "1"}
    volumes = ContainerSpec(image="pg", volumes=("./data:/var/lib/data", "named:/x", "/abs:/y:ro"))
    with_volumes = ProcessSpec(name="db", context="docker", container_spec=volumes, cwd="/proj")
    assert binds(with_volumes) == ["/proj/data:/var/lib/data", "named:/x", "/abs:/y:ro"]


def test_engine_states_are_normalised_onto_ours(
    engine: Engine, container: Callable[..., Any]
) -> None:
    engine_client = engine.client

    def state(name: str) -> Any:
        return engine_client.api.inspect_container(name)["State"]

    created = container(unique(), start=False)
    assert normalised_status(state(created.id)) == states.STOPPED
    running = container(unique())
    assert normalised_status(state(running.id)) == states.RUNNING
    ok = container(unique(), ["sh", "-c", "exit 0"])
    bad = container(unique(), ["sh", "-c", "exit 3"])
    assert engine_client.api.wait(ok.id)["StatusCode"] == 0
    assert engine_client.api.wait(bad.id)["StatusCode"] == 3
    assert normalised_status(state(ok.id)) == states.EXITED
    assert normalised_status(state(bad.id)) == states.FAILED
    if engine.name == "podman":
        return  # Podman restarts a container with no `restarting` state in between
    looping = engine_client.containers.run(
        IMAGE,
        ["sh", "-c", "exit 1"],
        detach=True,
        name=unique(),
        labels={TEST_LABEL: SESSION},
        restart_policy={"Name": "always"},
    )
    assert wait_for(lambda: state(looping.id)["Status"] == "restarting", 20)
    assert normalised_status({"Status": "restarting", "ExitCode": 1}) == states.BACKOFF
    # "dead" (a removal that failed half-way) cannot be produced on purpose.
    assert normalised_status({"Status": "dead", "ExitCode": 0}) == states.FAILED


@pytest.mark.parametrize("context", registry.in_containers())
@pytest.mark.parametrize("left_behind", [False, True], ids=["no socket", "dead engine's socket"])
def test_unreachable_engine_is_its_unavailable_error_without_hanging_or_leaking(
    tmp_path: Path, left_behind: bool, context: str
) -> None:
    path = tmp_path / "engine.sock"
    if left_behind:  # the socket file of an engine that died: connecting is refused
        with socket.socket(socket.AF_UNIX) as dead:
            dead.bind(str(path))
    kind = registry.kind(context)
    assert isinstance(kind, ContainerKind) and kind.unavailable is not None
    ctx = ContainerContext("/tmp/project", kind, base_url=f"unix://{path}")
    spec = ProcessSpec(name="db", context=context, container_spec=ContainerSpec(image="x"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(kind.unavailable) as raised:
            asyncio.run(ctx.start(spec, {}, 1))
        raised.value.__traceback__ = None  # its frames may hold what the SDK left open
        gc.collect()
    code, host = {
        "docker": ("DOCKER_UNAVAILABLE", "docker_host"),
        "podman": ("PODMAN_UNAVAILABLE", "container_host"),
    }[context]
    assert raised.value.code == code
    assert raised.value.data == {host: f"unix://{path}"}
    assert raised.value.suggestion == kind.start_hint
    assert [str(w.message) for w in caught if w.category is ResourceWarning] == []


def test_exec_output_reaches_the_context_output(
    engine: Engine, container: Callable[..., Any]
) -> None:
    name = unique()
    container(name)
    spec = ProcessSpec(
        name="w",
        command="echo out-1; echo err-1 >&2; printf tail",
        context=engine.name,
        container_spec=ContainerSpec(container=name),
    )

    async def scenario() -> tuple[list[OutputLine], ExitInfo]:
        ctx = ContainerContext("/tmp/project", engine.kind)
        try:
            proc = await ctx.start(spec, {"PROCLER_PROCESS_NAME": "w"}, 1)
            lines = []
            async for line in proc.output():
                assert isinstance(line, OutputLine)  # an exec's output comes line by line
                lines.append(line)
            return sorted(lines, key=lambda x: (x.stream, x.text)), await proc.wait()
        finally:
            ctx.close()

    lines, info = asyncio.run(scenario())
    assert [(x.stream, x.text) for x in lines] == [
        ("stderr", "err-1"),
        ("stdout", "out-1"),
        ("stdout", "tail"),
    ]
    assert (info.code, info.signal) == (0, None)


def test_signal_from_inside_the_container_for_a_remote_engine(
    engine: Engine, container: Callable[..., Any]
) -> None:
    """Without the exec's host pid (a remote engine) the run is signalled from inside."""
    name = unique()
    container(name)
    spec = ProcessSpec(
        name="w",
        args=("sleep", "504"),
        context=engine.name,
        container_spec=ContainerSpec(container=name),
    )

    async def scenario() -> ExitInfo:
        ctx = ContainerContext("/tmp/project", engine.kind)
        try:
            proc = await ctx.start(spec, {}, 1)
            assert isinstance(proc, ContainerRun)
            await ctx._signal_inside(proc, signal.SIGKILL)
            return await asyncio.wait_for(proc.wait(), 10)
        finally:
            ctx.close()

    assert asyncio.run(scenario()).code == 137
    assert wait_for(lambda: commands_in(engine.client, name) == ["sleep 600"])


class AdoptingContext(FakeContext):
    """A context that still runs the process when the supervisor comes back."""

    def __init__(self, survivor: FakeProcess | None) -> None:
        super().__init__()
        self.survivor = survivor

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        return self.survivor


def test_restore_adopts_a_surviving_run_instead_of_starting_one() -> None:
    async def scenario(adopt: bool) -> tuple[ProcessRuntime, AdoptingContext, FakeHost]:
        survivor = FakeProcess(4242, None) if adopt else None
        ctx, host = AdoptingContext(survivor), FakeHost()
        rt = ProcessRuntime(ProcessSpec(name="db", command="x"), ctx, host, FakeClock())
        rt.desired = "running"
        await rt.restore("restored after supervisor restart", lost=True)
        return rt, ctx, host

    rt, ctx, host = asyncio.run(scenario(adopt=True))
    assert (rt.status, rt.restarts, rt.run, ctx.started) == (states.RUNNING, 0, 1, [])
    assert rt.proc is not None and rt.proc.pid == 4242
    assert host.events[0][3] == "re-adopted: still running after supervisor restart"
    assert rt.last_exit is None
    rt, ctx, host = asyncio.run(scenario(adopt=False))
    assert (rt.status, rt.restarts, len(ctx.started)) == (states.RUNNING, 1, 1)
    assert host.events[0][3] == "run lost: the supervisor died"
    assert host.events[1][3] == "restored after supervisor restart"
    assert rt.last_exit is not None and rt.last_exit["reason"] == "supervisor_lost"
