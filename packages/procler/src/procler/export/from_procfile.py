"""`procler import procfile`: foreman/honcho semantics. `name: command` lines in order
(comments and blank lines skipped); the processes run in the Procfile's folder with the `.env`
beside it; PORT is set per process from a base in steps of 100 (the first gets the base, as
foreman and overmind do).

Nested Procfiles: a line that runs another Procfile manager (`foreman start -f sub/Procfile`,
`honcho -f ... start`, `overmind start -f ...`, `hivemind FILE`, optionally after `cd DIR &&`)
is a stack inside the stack. Procler does not run a supervisor under itself: that Procfile's
processes are brought in as `ENTRY-NAME`, in a group named ENTRY, running where the nested
manager would run them (its Procfile's folder, or its `-d`) with the environment it would
give them (the outer `.env`, then its own `.env` or `-e` file). Their PORTs continue the one
sequence, so no two processes share a port (foreman would hand the nested ones the entry's
PORT as their base, which the next entries also get).
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from agentcli.errors import AgentError
from agentcli.files import read_regular_text
from procler.config.keys import NAME_PATTERN
from procler.export.imported import MAX_IMPORT_BYTES, Imported, literal

_LINE = re.compile(r"([A-Za-z0-9_-]+)\s*:\s*(.*)")
_USES_PORT = re.compile(r"\$(?:PORT\b|\{PORT\})")
PORT_STEP = 100
MAX_DEPTH = 4  # nested Procfiles deeper than this are kept as commands (and warned)
_MANAGERS = ("foreman", "honcho", "overmind", "hivemind")
_OPTIONS = {  # the options of a nested manager that say where its stack is
    "-f": "procfile",
    "--procfile": "procfile",
    "-d": "root",
    "--root": "root",
    "--app-root": "root",
    "--directory": "root",
    "-e": "env",
    "--env": "env",
}


@dataclass(frozen=True)
class Nested:
    """Where a nested manager finds its stack: its Procfile, folder and env file."""

    procfile: Path
    root: Path
    env: Path
    only: tuple[str, ...] = ()  # `foreman start web worker`: just these


@dataclass(frozen=True)
class _Stack:
    """One Procfile being read: where its processes run and the names they get."""

    source: Path
    folder: Path
    env_files: tuple[Path, ...]
    prefix: str = ""
    depth: int = 0
    only: tuple[str, ...] = ()


def nested_manager(command: str, folder: Path) -> Nested | str | None:
    """The stack a command starts when it runs foreman/honcho/overmind/hivemind with the
    options that place it (a Procfile, a folder, an env file) and process names; why not,
    when it runs one with other options; None for any other command."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words[:1] == ["cd"] and len(words) > 2 and words[2] == "&&":
        folder, words = folder / words[1], words[3:]
    if words[:1] == ["exec"]:
        words = words[1:]
    if not words or os.path.basename(words[0]) not in _MANAGERS:
        return None
    manager, rest = os.path.basename(words[0]), words[1:]
    given: dict[str, str] = {}
    only: list[str] = []
    while rest:
        word = rest.pop(0)
        name, _, value = word.partition("=")
        if name in _OPTIONS and (value or rest):
            given[_OPTIONS[name]] = value or rest.pop(0)
        elif word.startswith("-"):
            return f"{manager} {word} is not read by the import"
        elif manager == "hivemind":
            if "procfile" in given:
                return f"hivemind takes one Procfile, not {word}"
            given["procfile"] = word
        elif "started" not in given:
            if word != "start":
                return f"{manager} {word} does not start a stack"
            given["started"] = word
        else:
            only.append(word)
    if manager != "hivemind" and "started" not in given:
        return f"{manager} without `start` does not start a stack"
    procfile = folder / given.get("procfile", "Procfile")
    root = folder / given["root"] if "root" in given else procfile.parent
    env = folder / given["env"] if "env" in given else root / ".env"
    return Nested(procfile, root, env, tuple(only))


class _Reader:
    def __init__(self, root: Path, base_port: int, top: Path) -> None:
        self.root = root.resolve()
        self.base_port = base_port
        self.top = top.parent.resolve()
        self.result = Imported()
        self.reading: set[Path] = set()

    def at(self, source: Path, number: int) -> str:
        return f"{os.path.relpath(source.resolve(), self.top)}:{number}:1"

    def read(self, text: str, stack: _Stack) -> list[str]:
        """Add the Procfile's processes; the names added, in order."""
        self.reading.add(stack.source.resolve())
        added: list[str] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = _LINE.fullmatch(line)
            name = stack.prefix + match.group(1) if match else ""
            at = self.at(stack.source, number)
            if match is None or not re.fullmatch(NAME_PATTERN, name) or not match.group(2):
                self.result.warn("", "line", f"not `name: command`: {line!r} (skipped)", at)
                continue
            if stack.only and match.group(1) not in stack.only:
                continue
            nested = nested_manager(match.group(2), stack.folder)
            if isinstance(nested, str):
                self.result.warn(name, "command", f"{nested}: kept as one process", at)
            members = self.nested(name, nested, stack, at) if isinstance(nested, Nested) else []
            if members:
                added += members
                continue
            added.append(self.process(name, match.group(2), stack, at))
        self.reading.discard(stack.source.resolve())
        return added

    def nested(self, name: str, nested: Nested, outer: _Stack, at: str) -> list[str]:
        """The nested Procfile's processes as NAME-*, grouped as NAME; none (warned) when it
        cannot be read, so the line stays one process."""
        why = ""
        if outer.depth + 1 > MAX_DEPTH:
            why = f"nested more than {MAX_DEPTH} deep"
        elif nested.procfile.resolve() in self.reading:
            why = "it starts a Procfile already being read (a loop)"
        else:
            try:  # a pipe or a device is refused, never read
                text = read_regular_text(nested.procfile, MAX_IMPORT_BYTES, str(nested.procfile))
            except AgentError as exc:  # not a regular file, or too large: warned
                why = exc.message
            except (OSError, UnicodeDecodeError) as exc:
                why = f"cannot read {nested.procfile}: {exc.__class__.__name__}"
        if why:
            self.result.warn(name, "command", f"{why}: kept as one process", at)
            return []
        stack = _Stack(
            nested.procfile,
            nested.root,
            (*outer.env_files, nested.env),
            f"{name}-",
            outer.depth + 1,
            nested.only,
        )
        members = self.read(text, stack)
        if not members:
            self.result.warn(
                name, "command", f"{nested.procfile} holds no process: kept as one", at
            )
        else:
            self.result.groups[name] = {"processes": members}
            self.result.warn(
                name,
                "command",
                f"runs the Procfile {os.path.relpath(nested.procfile.resolve(), self.top)}: its "
                f"processes are imported as the group {name} ({', '.join(members)}), their PORTs "
                "continuing the sequence",
                at,
            )
        return members

    def process(self, name: str, command: str, stack: _Stack, at: str) -> str:
        processes = self.result.processes
        if name in processes:
            self.result.warn(name, "name", "defined twice: the later line wins", at)
        names = list(processes)
        port = self.base_port + PORT_STEP * (names.index(name) if name in names else len(names))
        process: dict[str, object] = {"command": literal(command)}
        cwd = os.path.relpath(stack.folder.resolve(), self.root)
        if cwd != ".":
            process["cwd"] = cwd
        process["env"] = {"PORT": str(port)}
        env_files = [
            os.path.relpath(f.resolve(), self.root) for f in stack.env_files if f.is_file()
        ]
        if env_files:
            process["env_file"] = list(dict.fromkeys(env_files))
        if _USES_PORT.search(command):
            process["ports"] = [port]
        processes[name] = process
        return name


def import_procfile(text: str, source: Path, root: Path, base_port: int = 5000) -> Imported:
    """Processes of a Procfile at `source` (nested ones flattened), for a project at `root`."""
    reader = _Reader(root, base_port, source)
    folder = source.parent
    reader.read(text, _Stack(source, folder, (folder / ".env",)))
    return reader.result
