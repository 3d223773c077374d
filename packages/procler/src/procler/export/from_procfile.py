"""`procler import procfile`: foreman/honcho semantics. `name: command` lines in order
(comments and blank lines skipped), the `.env` beside it for every process, and PORT set per
process from a base in steps of 100 (the first gets the base, as foreman and overmind do)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from procler.config.keys import NAME_PATTERN
from procler.export.imported import Imported, literal

_LINE = re.compile(r"([A-Za-z0-9_-]+)\s*:\s*(.*)")
_USES_PORT = re.compile(r"\$(?:PORT\b|\{PORT\})")
PORT_STEP = 100


def import_procfile(text: str, source: Path, root: Path, base_port: int = 5000) -> Imported:
    """Processes of a Procfile at `source`, for a project rooted at `root`."""
    result = Imported()
    folder = source.parent.resolve()
    cwd = os.path.relpath(folder, root.resolve())
    env_file = folder / ".env"
    where = source.name
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None or not re.fullmatch(NAME_PATTERN, match.group(1)) or not match.group(2):
            result.warn(
                "", "line", f"not `name: command`: {line!r} (skipped)", f"{where}:{number}:1"
            )
            continue
        name, command = match.groups()
        if name in result.processes:
            result.warn(name, "name", "defined twice: the later line wins", f"{where}:{number}:1")
        names = list(result.processes)
        port = base_port + PORT_STEP * (names.index(name) if name in names else len(names))
        process: dict[str, object] = {"command": literal(command)}
        if cwd != ".":
            process["cwd"] = cwd
        process["env"] = {"PORT": str(port)}
        if env_file.is_file():
            process["env_file"] = [os.path.relpath(env_file, root.resolve())]
        if _USES_PORT.search(command):
            process["ports"] = [port]
        result.processes[name] = process
    return result
