"""The supervisor process: single-instance lock, socket, HTTP server, signals.

Started as `python -m procler.supervisor_entry PROJECT_ROOT CONFIG_PATH` (the client does
it), which hands `main` the command declarations: the supervisor never imports the CLI.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import socket
import sys
import time

from procler import project
from procler.contexts import procfs
from procler.supervisor import log_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    import uvicorn

    from agentcli.commands import App
    from procler.supervisor.core import Supervisor

log = logging.getLogger("procler.daemon")
SHUTDOWN_GRACE = 5  # seconds; bound on answering requests still in flight when the supervisor stops
LOCK_WAIT = 8.0  # bound on waiting for a dead supervisor's sentinel to finish its sweep
LOCK_POLL = 0.02
STATE_CHECK = 0.5  # seconds between checks that the state directory is still there


def take_lock(root: str) -> int | None:
    """Hold the project's supervisor lock for our lifetime; None if another supervisor has it.

    The lock is an flock on the project directory itself, which `git clean` or removing
    `.procler/state` cannot take away (a lock file there could be deleted under us, and
    the next command would start a second supervisor). Our sentinel inherits it, so
    while a killed supervisor's sentinel still sweeps we wait for it (bounded); a live
    supervisor holding it means we are not needed.
    """
    fd = project.open_lock(root)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if holder_alive(root) or time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(LOCK_POLL)
    write_pid(root)
    return fd


def holder_alive(root: str) -> bool:
    """The pid recorded by the lock's holder is a live process (not a dead supervisor
    whose sentinel holds the lock while it sweeps)."""
    recorded = project.supervisor_pid(root)
    if recorded is None or not recorded.isdigit() or int(recorded) == os.getpid():
        return False
    stat = procfs.read_stat(int(recorded))
    return stat is not None and stat.state != "Z"


def write_pid(root: str) -> None:
    """Record our pid where commands read it (`daemon status`, holder_alive)."""
    fd = os.open(project.lock_path(root), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, f"{os.getpid()}\n".encode())
    finally:
        os.close(fd)


def bind_socket(path: str) -> socket.socket:
    """Bind the unix socket with mode 0600; any file there is stale because we hold the lock."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # the socket is created 0600: no moment where others could connect
    try:
        project.at_socket(path, sock.bind)
    finally:
        os.umask(old)
    sock.listen(256)
    return sock


async def serve(
    app: App,
    answered: frozenset[str],
    root: str,
    config_path: str,
    sock: socket.socket,
    lock_fd: int,
) -> None:
    """Serve `app`'s commands until told to stop; those whose declared handler is one of
    `answered` also from argv."""
    import uvicorn

    from procler.supervisor.api.command_routes import Api
    from procler.supervisor.api.event_routes import EventRoutes
    from procler.supervisor.api.tcp_listener import TcpListener
    from procler.supervisor.commands import command_table
    from procler.supervisor.core import Supervisor
    from procler.supervisor.operations import Operations

    sup = Supervisor(root, config_path, lock_fd)
    ops = Operations(sup)
    listener = TcpListener(sup.state_dir)
    api = Api(
        app,
        command_table(ops, listener),
        answered=answered,
        config_path=config_path,
        streams=EventRoutes(sup),
    )
    listener.api = api
    # like the processes: after `daemon stop` the next supervisor does not listen
    ops.when_stopped_for_good(listener.drop_settings)
    config = uvicorn.Config(
        api,
        log_config=None,
        lifespan="off",
        access_log=False,
        proxy_headers=False,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )
    config.load()
    server = uvicorn.Server(config)
    server.lifespan = config.lifespan_class(config)  # startup() expects it (serve() sets it)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, sup.stop_requested.set)  # only sets a flag
    loop.add_signal_handler(signal.SIGCHLD, sup.child_exited)  # only enqueues the reaping
    await sup.boot()  # restore before answering, so the first answer shows the restored state
    await server.startup(sockets=[sock])
    # The socket's path, not its name: bound through a descriptor of its folder when the path
    # is past sun_path, it is named /proc/self/fd/N/..., which no longer leads there.
    path = project.socket_path(root)
    log.info("supervisor %d serving %s on %s", os.getpid(), root, path)
    await listener.restore()  # `procler serve`'s listener, if the previous supervisor had one
    keeper = asyncio.create_task(keep_state(root, sup, server, path))
    await sup.stop_requested.wait()
    keeper.cancel()
    log.info("supervisor stopping")
    for listening in server.servers:  # a command sent now waits for the next supervisor
        listening.close()
    await listener.close()
    await sup.close()
    await server.shutdown(sockets=[sock])


def identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


async def keep_state(root: str, sup: Supervisor, server: uvicorn.Server, path: str) -> None:
    """Notice the state directory or the socket removed under us (as `git clean -xdf`
    does) and put them back, so the next command finds this supervisor instead of
    starting another one (which the lock would refuse anyway). The project directory
    itself removed: nobody can reach this supervisor any more, so it stops its processes
    and exits rather than run them unseen."""
    state = project.state_dir(root)
    marks = (identity(state), identity(path))
    while True:
        await asyncio.sleep(STATE_CHECK)
        if not os.path.isdir(root):
            log.warning("project directory %s removed; stopping its processes", root)
            sup.stop_requested.set()
            return
        if (identity(state), identity(path)) == marks or not os.path.exists(
            project.named_files(sup.config_path)[0]
        ):
            continue  # unchanged, or the config is gone too: nothing to put back
        log.warning("state directory or socket removed; recreating them")
        try:
            os.makedirs(state, mode=0o700, exist_ok=True)
            write_pid(root)
            log_fd = os.open(
                os.path.join(state, "supervisor.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600
            )
            os.dup2(log_fd, 2)
            os.close(log_fd)
            sup.reopen_state()
            old = list(server.servers)
            await server.startup(sockets=[bind_socket(path)])
        except OSError:
            log.exception("could not recreate the state directory; trying again")
            continue
        for listener in old:
            listener.close()
        marks = (identity(state), identity(path))


def main(app: App, answered: frozenset[str]) -> None:
    """The supervisor process's life: argv is PROJECT_ROOT CONFIG_PATH."""
    root, config_path = sys.argv[1], sys.argv[2]
    log_lines.configure(sys.stderr, os.path.join(project.state_dir(root), "supervisor.log"))
    project.make_state_dir(root)
    lock = take_lock(root)
    if lock is None:
        log.info("another supervisor holds the lock for %s; exiting", root)
        return
    procfs.become_child_subreaper()
    path = project.socket_path(root)
    sock = bind_socket(path)
    try:
        asyncio.run(serve(app, answered, root, config_path, sock, lock))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(lock)
