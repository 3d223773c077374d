"""The container contexts through the real CLI, a real supervisor and real engines: each
test once per engine (Docker, Podman), with the same config keys and the same answers."""

from __future__ import annotations

import hashlib
import os
import signal
from collections.abc import Callable
from itertools import accumulate
from typing import Any

import pytest
from procler_testkit.engine_fixtures import Engine
from procler_testkit.engine_helpers import commands_in, free_port, unique
from procler_testkit.harness import Project, sentinel_running, wait_for

from procler.contexts.container import ContainerContext
from procler.contexts.container_stream import engine_time, parse_log_line
from procler.supervisor.clock import iso


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_exec_start_stop_restart_leaves_nothing_in_the_container(
    make_project: Callable[[str], Project], container: Callable[..., Any], engine: Engine
) -> None:
    e = engine.name
    name = unique()
    container(name)
    p = make_project(
        f"""version: 1
processes:
  worker:
    context: {e}
    {e}: {{container: {name}}}
    command: "sleep 500 & sleep 501 & wait"
    env: {{GREETING: hi}}
  stubborn:
    context: {e}
    {e}: {{container: {name}}}
    command: "trap '' TERM; sleep 502 & wait"
    stop_timeout: 300ms
"""
    )
    init = ["sleep 600"]
    running = sorted([*init, "/bin/sh -c sleep 500 & sleep 501 & wait", "sleep 500", "sleep 501"])
    started = p.ok("start", "worker")
    assert started["status"] == "running"
    assert started["context"] == e
    assert started[e]["kind"] == "exec"
    assert started[e]["container"] == name
    assert started["linux_state"] is None
    assert wait_for(lambda: commands_in(engine.client, name) == running)

    stopped = p.ok("stop", "worker")
    assert stopped["status"] == "stopped"
    assert commands_in(engine.client, name) == init

    assert p.ok("restart", "worker")["run"] == 2
    assert wait_for(lambda: commands_in(engine.client, name) == running)
    again = p.ok("restart", "worker")  # the old run is gone before the new one starts
    assert again["run"] == 3
    assert wait_for(lambda: commands_in(engine.client, name) == running)
    p.ok("stop", "worker")
    assert commands_in(engine.client, name) == init

    p.ok("start", "stubborn")
    assert wait_for(lambda: "sleep 502" in commands_in(engine.client, name))
    killed = p.ok("stop", "stubborn")
    assert killed["last_exit"]["code"] == 137  # TERM ignored: escalated to KILL
    assert commands_in(engine.client, name) == init


def test_exec_process_dies_with_a_killed_supervisor(
    make_project: Callable[[str], Project], container: Callable[..., Any], engine: Engine
) -> None:
    e = engine.name
    name = unique()
    container(name)
    p = make_project(
        f"""version: 1
processes:
  worker:
    context: {e}
    {e}: {{container: {name}}}
    command: "sleep 503"
"""
    )
    p.ok("start", "worker")
    os.kill(p.supervisor_pid(), signal.SIGKILL)
    assert wait_for(lambda: commands_in(engine.client, name) == ["sleep 600"])
    restored = p.ok("status", "worker")
    assert restored["status"] == "running"
    assert restored["restarts"] == 1
    assert commands_in(engine.client, name) == ["sleep 503", "sleep 600"]


def test_owned_container_lifecycle_logs_and_readoption_after_kill_9(
    make_project: Callable[[str], Project], engine: Engine, image: str
) -> None:
    e = engine.name
    port = free_port()
    p = make_project(
        f"""version: 1
processes:
  web:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "echo hello-out; echo hello-err >&2; exec httpd -f -p 127.0.0.1:{port}"
    env: {{GREETING: hi}}
    stop_timeout: 300ms
"""
    )
    root = str(p.root)
    started = p.ok("start", "web")
    assert started["status"] == "running"
    docker = started[e]
    assert docker["kind"] == "image"
    assert docker["image"] == engine.client.images.get(image).tags[0]  # as the engine names it
    assert docker["state"] == "running"
    assert docker["container"] == f"procler-web-{hashlib.sha1(root.encode()).hexdigest()[:8]}"
    info = engine.client.api.inspect_container(docker["container_id"])
    assert info["Config"]["Labels"] == {
        "procler.project": root,
        "procler.process": "web",
        "procler.run": "1",
    }
    assert info["HostConfig"]["NetworkMode"] == "host"
    assert "GREETING=hi" in info["Config"]["Env"]
    assert "PROCLER_PROCESS_NAME=web" in info["Config"]["Env"]
    assert started["pid"] == info["State"]["Pid"]

    supervisor = p.supervisor_pid()
    os.kill(supervisor, signal.SIGKILL)
    assert wait_for(lambda: not pid_alive(supervisor) and not sentinel_running(root))
    assert engine.client.api.inspect_container(docker["container_id"])["State"]["Running"]

    adopted = p.ok("status", "web")  # the next command starts a supervisor that adopts it
    assert adopted["status"] == "running"
    assert adopted[e]["container_id"] == docker["container_id"]
    assert adopted["restarts"] == 0
    assert adopted["run"] == 2
    # uptime counts from the container's own start, not from the adoption
    assert (
        adopted["started_at"]
        == started["started_at"]
        == iso(engine_time(info["State"]["StartedAt"]))
    )

    lines = p.ok("logs", "web", "--run", "all")["lines"]
    # The engine stamps each stream as it reads it: order is kept within a stream only.
    assert sorted((line["stream"], line["text"]) for line in lines) == [
        ("stderr", "hello-err"),
        ("stdout", "hello-out"),
    ]
    kept = engine.client.api.logs(docker["container_id"], timestamps=True).decode()
    # The engine's own times, kept to the microsecond the store records, and never going
    # backwards (the store's index bisects them): the engine stamps each stream as it reads
    # it, and may hand over a line stamped a few microseconds before the one it gave first.
    engine_ts = sorted(
        accumulate((parse_log_line(raw)[0] or 0.0 for raw in kept.splitlines()), max)
    )
    stored_ts = sorted(parse_log_line(line["ts"] + " x")[0] or 0.0 for line in lines)
    assert len(stored_ts) == len(engine_ts) == 2
    assert all(abs(a - b) < 2e-6 for a, b in zip(stored_ts, engine_ts, strict=True)), (
        lines,
        kept,
    )

    stopped = p.ok("stop", "web")
    assert stopped["status"] == "stopped"
    assert stopped["last_exit"]["code"] == 137  # httpd as pid 1 ignores TERM: killed
    state = engine.client.api.inspect_container(docker["container_id"])["State"]
    assert (state["Status"], state["ExitCode"]) == ("exited", 137)

    ctx = ContainerContext(root, engine.kind)  # what `remove` of a definition with an image calls
    try:
        assert ctx.remove_owned("web") == [docker["container_id"]]
        assert ctx.labelled("web") == []
    finally:
        ctx.close()


def test_owned_container_exit_codes_become_exited_and_failed(
    make_project: Callable[[str], Project], image: str, engine: Engine
) -> None:
    e = engine.name
    p = make_project(
        f"""version: 1
processes:
  done:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "sleep 3; exit 0"
    restart: "no"
  broken:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "sleep 3; exit 3"
    restart: "no"
"""
    )
    p.ok("start", "done")
    p.ok("start", "broken")
    code, env = p.run("wait", "done", "--for", "exited", "--timeout", "20s")
    assert (code, env["data"]["exit_code"]) == (0, 0)
    code, env = p.run("wait", "broken", "--for", "failed", "--timeout", "20s")
    assert (code, env["data"]["exit_code"]) == (0, 3)


def test_existing_container_start_and_stop(
    make_project: Callable[[str], Project], container: Callable[..., Any], engine: Engine
) -> None:
    e = engine.name
    name = unique()
    created = container(name, start=False)
    p = make_project(
        f"""version: 1
processes:
  db:
    context: {e}
    {e}: {{container: {name}}}
    stop_timeout: 300ms
"""
    )
    assert p.ok("status", "db")["status"] == "stopped"
    started = p.ok("start", "db")
    assert started["status"] == "running"
    assert started[e]["kind"] == "container"
    assert started[e]["container_id"] == created.id
    state = engine.client.api.inspect_container(name)["State"]
    assert (state["Status"], started["pid"]) == ("running", state["Pid"])

    stopped = p.ok("stop", "db")
    assert stopped["status"] == "stopped"
    assert engine.client.api.inspect_container(name)["State"]["Status"] == "exited"
    again = p.ok("start", "db")
    assert (again["status"], again["run"]) == ("running", 2)
    assert engine.client.api.inspect_container(name)["State"]["Status"] == "running"

    supervisor = p.supervisor_pid()
    os.kill(supervisor, signal.SIGKILL)
    assert wait_for(lambda: not pid_alive(supervisor) and not sentinel_running(str(p.root)))
    adopted = p.ok("status", "db")  # still running: followed again, not restarted
    assert (adopted["status"], adopted["run"], adopted["restarts"]) == ("running", 3, 0)
    assert adopted["pid"] == again["pid"]
    p.ok("stop", "db")
    assert engine.client.api.inspect_container(name)["State"]["Status"] == "exited"


def test_health_checks_and_a_local_process_depending_on_a_docker_one(
    make_project: Callable[[str], Project], engine: Engine, image: str
) -> None:
    e = engine.name
    port = free_port()
    flag = f"/tmp/{unique('ready')}"  # exists only inside the container
    fast = "interval: 100ms, timeout: 2s, retries: 2, start_period: 20s"
    p = make_project(
        f"""version: 1
processes:
  web:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "echo ok > /www/index.html; exec httpd -f -p 127.0.0.1:{port} -h /www"
    healthcheck: {{http: {{port: {port}, path: /}}, {fast}}}
    stop_timeout: 300ms
  cache:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "sleep 0.5; echo ready-inside > {flag}; exec sleep 600"
    healthcheck: {{exec: "cat {flag}", {fast}}}
    stop_timeout: 300ms
  api:
    args: [sleep, "600"]
    depends_on: [{{name: web, condition: healthy}}]
"""
    )
    api = p.ok("start", "api")
    assert [d["name"] for d in api["dependencies"]] == ["web"]
    web = p.ok("status", "web")
    assert web["status"] == "healthy"
    assert web["health"]["last_output"] == f"GET http://127.0.0.1:{port}/: 200"

    p.ok("start", "cache")
    code, env = p.run("wait", "cache", "--for", "healthy", "--timeout", "20s")
    assert code == 0, env
    assert env["data"]["health"]["last_output"] == "exit 0: ready-inside"
    assert not os.path.exists(flag)


def test_status_has_the_same_keys_for_local_and_a_container(
    make_project: Callable[[str], Project], image: str, engine: Engine
) -> None:
    e = engine.name
    p = make_project(
        f"""version: 1
processes:
  api:
    args: [sleep, "600"]
  db:
    context: {e}
    {e}: {{image: "{image}"}}
    command: "exec sleep 600"
    stop_timeout: 300ms
"""
    )
    p.ok("start", "api")
    p.ok("start", "db")
    local, docker = p.ok("status")["processes"]
    assert list(local) == list(docker)
    assert (local["context"], docker["context"]) == ("local", e)
    assert local[e] is None
    assert local["linux_state"]["state_name"] == "sleeping"
    assert docker["linux_state"] is None
    assert sorted(docker[e]) == [
        "container",
        "container_id",
        "exec_id",
        "image",
        "kind",
        "state",
    ]
    assert docker["memory_rss_bytes"] > 0
    stopped_local, stopped_docker = p.ok("stop", "--all")["processes"]
    assert list(stopped_local) == list(stopped_docker)


def test_missing_container_image_and_engine_are_clear_errors(
    make_project: Callable[[str], Project],
    image: str,
    monkeypatch: pytest.MonkeyPatch,
    engine: Engine,
) -> None:
    e = engine.name
    p = make_project(
        f"""version: 1
processes:
  ghost:
    context: {e}
    {e}: {{container: procler-no-such-container}}
    command: "true"
  phantom:
    context: {e}
    {e}: {{image: "procler-no-such-image:latest"}}
"""
    )
    code, env = p.run("start", "ghost")
    assert (code, env["error_code"]) == (2, "CONTAINER_NOT_FOUND")
    assert env["data"]["container"] == "procler-no-such-container"
    assert env["suggestion"] == (
        f"create it first (`{e} ps -a` lists containers) or fix processes.ghost.{e}.container"
    )
    code, env = p.run("run", "spirit", "--context", e, "--container", "procler-no-such-container")
    assert (code, env["suggestion"]) == (
        2,
        f"create it first (`{e} ps -a` lists containers) or fix the definition: "
        "`procler define spirit --container NAME --force`",
    )
    code, env = p.run("start", "phantom")
    assert (code, env["error_code"]) == (2, "IMAGE_NOT_FOUND")
    assert "never pulls" in env["suggestion"]
    assert p.ok("status", "phantom")["status"] == "failed"

    where = engine.kind.host_env[0]
    monkeypatch.setenv(where, "unix:///nonexistent/engine.sock")
    q = make_project(
        f"""version: 1
processes:
  db:
    context: {e}
    {e}: {{image: "{image}"}}
"""
    )
    code, env = q.run("start", "db")
    code_of = {"docker": "DOCKER_UNAVAILABLE", "podman": "PODMAN_UNAVAILABLE"}
    assert (code, env["error_code"]) == (3, code_of[e])
    assert env["data"] == {where.lower(): "unix:///nonexistent/engine.sock"}
    assert env["suggestion"] == engine.kind.start_hint
    assert where in env["suggestion"]


def serving(port: int) -> tuple[str, ...]:
    """A web server that a TERM ends at once (httpd as pid 1 ignores TERM: each stop would
    wait the 10 s of the default stop_timeout, then kill)."""
    return ("sh", "-c", f"trap 'exit 0' TERM; httpd -f -p 127.0.0.1:{port} & wait")


def test_remove_of_a_runtime_image_definition_removes_its_container(
    make_project: Callable[[str], Project], engine: Engine, image: str
) -> None:
    """`run --image` defines and starts; `remove` stops it and removes the container, even
    when the supervisor that created it was killed in between."""
    e = engine.name
    p = make_project("version: 1\nprocesses: {}\n")
    port = free_port()
    argv = ("run", "web", "--context", e, "--image", image, "--", *serving(port))
    started = p.ok(*argv)
    assert (started["status"], started["source"], started[e]["kind"]) == (
        "running",
        "runtime",
        "image",
    )
    first = started[e]["container_id"]
    assert p.ok("remove", "web") == {"name": "web", "changed": True}
    assert engine.client.api.containers(all=True, filters={"id": first}) == []

    again = p.ok(*argv)[e]["container_id"]
    supervisor = p.supervisor_pid()
    os.kill(supervisor, signal.SIGKILL)
    assert wait_for(lambda: not pid_alive(supervisor) and not sentinel_running(str(p.root)))
    assert engine.client.api.inspect_container(again)["State"]["Running"]
    assert p.ok("remove", "web") == {"name": "web", "changed": True}
    assert engine.client.api.containers(all=True, filters={"id": again}) == []
    code, answer = p.run("status", "web")
    assert (code, answer["error_code"]) == (2, "PROCESS_NOT_FOUND")


def test_a_failed_run_image_keeps_no_definition(
    make_project: Callable[[str], Project], image: str, engine: Engine
) -> None:
    e = engine.name
    p = make_project("version: 1\nprocesses: {}\n")
    port = free_port()
    command = ("--", *serving(port))
    code, env = p.run("run", "web", "--context", e, "--image", "procler-no-such-image:1", *command)
    assert (code, env["error_code"]) == (2, "IMAGE_NOT_FOUND")
    assert p.ok("list")["processes"] == []
    started = p.ok("run", "web", "--context", e, "--image", image, *command)  # the retry
    assert (started["status"], started["run"]) == ("running", 1)
