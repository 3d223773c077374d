"""Who holds a TCP port: listening sockets from /proc/net/tcp{,6} mapped to their process."""

from __future__ import annotations

import os
from dataclasses import dataclass

from procler.errors import PortInUse

LISTEN = "0A"


@dataclass(frozen=True)
class PortHolder:
    port: int
    pid: int | None
    command: str


def _listening_inodes(port: int) -> set[str]:
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                next(fh)
                for line in fh:
                    parts = line.split()
                    local, state, inode = parts[1], parts[3], parts[9]
                    if state == LISTEN and int(local.rsplit(":", 1)[1], 16) == port:
                        inodes.add(inode)
        except OSError:
            continue
    return inodes


def _owner(inodes: set[str]) -> tuple[int | None, str]:
    targets = {f"socket:[{i}]" for i in inodes}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fd_dir = f"/proc/{entry}/fd"
        try:
            links = {os.readlink(os.path.join(fd_dir, fd)) for fd in os.listdir(fd_dir)}
        except OSError:
            continue
        if links & targets:
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    cmd = fh.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            except OSError:
                cmd = ""
            return int(entry), cmd
    return None, ""


def project_process(pid: int | None, root: str) -> str | None:
    """The name of the process of this project that pid belongs to (its environment says
    so: every run and its children carry PROCLER_PROJECT_ROOT and PROCLER_PROCESS_NAME)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            pairs = dict(item.partition(b"=")[::2] for item in fh.read().split(b"\0"))
    except OSError:
        return None
    if pairs.get(b"PROCLER_PROJECT_ROOT") != os.fsencode(root):
        return None
    name = pairs.get(b"PROCLER_PROCESS_NAME")
    return name.decode("utf-8", "replace") if name else None


def holder(port: int) -> PortHolder | None:
    """The process listening on port (pid None if it belongs to another user), or None."""
    inodes = _listening_inodes(port)
    if not inodes:
        return None
    pid, command = _owner(inodes)
    return PortHolder(port, pid, command)


def listening(port: int) -> bool:
    """Something listens on the port (cheap: the owner is not looked up)."""
    return bool(_listening_inodes(port))


def refuse_taken(name: str, ports: tuple[int, ...], root: str) -> None:
    """PORT_IN_USE when something already listens on one of a process's ports, naming it
    (the Procler process of this project, or the pid and its command)."""
    for port in ports:
        held = holder(port)
        if held is None:
            continue
        ours = project_process(held.pid, root)
        found = {"pid": held.pid, "command": held.command, "procler_process": ours}
        data = {"name": name, "port": port, "holder": found}
        if ours is not None:
            raise PortInUse(
                f"{name}: port {port} is already in use by Procler process {ours!r} "
                f"(pid {held.pid})",
                suggestion=f"`procler stop {ours}` first, or change {name}'s ports",
                data=data,
            )
        raise PortInUse(
            f"{name}: port {port} is already in use by pid {held.pid} ({held.command})",
            suggestion=f"stop pid {held.pid} or change {name}'s ports",
            data=data,
        )
