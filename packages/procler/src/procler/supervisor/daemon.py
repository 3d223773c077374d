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

from procler import project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agentcli.commands import App

log = logging.getLogger("procler.daemon")
SHUTDOWN_GRACE = 5  # seconds; bound on answering requests still in flight when the supervisor stops


def take_lock(root: str) -> int | None:
    """Hold the project's supervisor lock for our lifetime; None if another supervisor has it."""
    fd = project.open_private(project.lock_path(root), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def become_subreaper() -> None:
    """Orphans of our processes get reparented to us (not to PID 1, which may never reap
    them in a container), so the supervisor can reap their zombies."""
    import ctypes

    pr_set_child_subreaper = 36
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_child_subreaper, 1, 0, 0, 0)


def bind_socket(path: str) -> socket.socket:
    """Bind the unix socket with mode 0600; any file there is stale because we hold the lock."""
    parent = os.path.dirname(path)
    if parent == project.runtime_dir():
        project.private_dir(parent)
    else:
        os.makedirs(parent, mode=0o700, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # the socket is created 0600: no moment where others could connect
    try:
        sock.bind(path)
    finally:
        os.umask(old)
    sock.listen(256)
    return sock


async def serve(
    app: App, answered: frozenset[str], root: str, config_path: str, sock: socket.socket
) -> None:
    """Serve `app`'s commands until told to stop; those whose declared handler is one of
    `answered` also from argv."""
    import uvicorn

    from procler.supervisor.core import Supervisor
    from procler.supervisor.handlers import Handlers
    from procler.supervisor.http import Api

    sup = Supervisor(root, config_path)
    api = Api(app, Handlers(sup).table(), answered=answered, config_path=config_path)
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
    log.info("supervisor %d serving %s on %s", os.getpid(), root, sock.getsockname())
    await sup.stop_requested.wait()
    log.info("supervisor stopping")
    await sup.close()
    await server.shutdown(sockets=[sock])


def main(app: App, answered: frozenset[str]) -> None:
    """The supervisor process's life: argv is PROJECT_ROOT CONFIG_PATH."""
    root, config_path = sys.argv[1], sys.argv[2]
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    project.make_state_dir(root)
    lock = take_lock(root)
    if lock is None:
        log.info("another supervisor holds the lock for %s; exiting", root)
        return
    become_subreaper()
    path = project.socket_path(root)
    sock = bind_socket(path)
    try:
        asyncio.run(serve(app, answered, root, config_path, sock))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(lock)
