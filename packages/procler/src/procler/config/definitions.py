"""Processes defined at runtime (`procler define`) and snippets saved at runtime (`procler
snippet save`), kept in <state>/definitions.json.

Every change happens under an exclusive fcntl lock and is written atomically (temp file +
rename), so concurrent `define`s never lose each other's work or leave half a file.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from procler.config.model import ContainerSpec, ProcessSpec, Snippet
from procler.config.state_files import StateFileCorrupt, read_state_json, write_state_json
from procler.contexts import registry
from procler.errors import Conflict, StateDirUnwritable
from procler.project import make_state_dir, open_private, state_dir

DEFINITIONS_FILE = "definitions.json"
LOCK_FILE = "definitions.lock"


@dataclass(frozen=True)
class RuntimeDefinition:
    command: str | None  # None: an image's own command
    cwd: str  # absolute
    env: tuple[tuple[str, str], ...] = ()
    image: str | None = None  # a container context: a container Procler creates and owns
    container: str | None = None  # a container context: run the command in this container
    # With image or container, the container context named; None: the default one
    # (Docker's, as in files written before there was a choice) or, without, local.
    context: str | None = None

    @property
    def where(self) -> str:
        return registry.exec_context(self.context, self.image or self.container)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.command, "cwd": self.cwd, "env": dict(self.env)}
        out.update({k: v for k, v in (("image", self.image), ("container", self.container)) if v})
        if self.context is not None:
            out["context"] = self.context
        return out

    @classmethod
    def from_json(cls, data: Any) -> RuntimeDefinition:
        if not isinstance(data, dict) or not isinstance(data.get("command"), str | None):
            raise StateFileCorrupt(f"a definition must be an object with a command: {data!r}")
        env = data.get("env") or {}
        if not isinstance(data.get("cwd"), str) or not isinstance(env, dict):
            raise StateFileCorrupt(f"a definition needs cwd text and an env object: {data!r}")
        where = {k: data.get(k) for k in ("image", "container")}
        if any(v is not None and not isinstance(v, str) for v in where.values()):
            raise StateFileCorrupt(f"image and container must be text: {data!r}")
        if data.get("command") is None and not (where["image"] or where["container"]):
            raise StateFileCorrupt(f"a definition without a command needs a container: {data!r}")
        context = data.get("context")
        if context is not None and context not in registry.in_containers():
            raise StateFileCorrupt(f"context must be a container context: {data!r}")
        env_items = tuple((str(k), str(v)) for k, v in env.items())
        return cls(
            data.get("command"),
            data["cwd"],
            env_items,
            where["image"],
            where["container"],
            context,
        )

    def to_spec(self, name: str) -> ProcessSpec:
        settings = None
        if self.image or self.container:
            settings = ContainerSpec(image=self.image, container=self.container)
        return ProcessSpec(
            name=name,
            command=self.command,
            cwd=self.cwd,
            env=self.env,
            context=self.where,
            container_spec=settings,
            source="runtime",
        )


def definitions_path(root: str) -> str:
    return os.path.join(state_dir(root), DEFINITIONS_FILE)


def _read_body(root: str) -> dict[str, Any]:
    """The file's JSON object; {} when nothing was ever defined."""
    return read_state_json(definitions_path(root)) or {}


def read_definitions(root: str) -> dict[str, RuntimeDefinition]:
    """The stored definitions in definition order; {} when none were ever made."""
    data = _read_body(root)
    processes = data.get("processes", {}) if data else {}
    if not isinstance(processes, dict):
        raise StateFileCorrupt(f"{definitions_path(root)} has no `processes` object")
    return {str(name): RuntimeDefinition.from_json(d) for name, d in processes.items()}


def read_snippets(root: str) -> dict[str, dict[str, Any]]:
    """Snippets saved with `procler snippet save`: name -> {command, description, tags, ...}."""
    snippets = _read_body(root).get("snippets", {})
    if not isinstance(snippets, dict) or not all(
        isinstance(s, dict) and isinstance(s.get("command"), str) for s in snippets.values()
    ):
        raise StateFileCorrupt(f"{definitions_path(root)}: `snippets` needs a command each")
    return {str(name): snippet for name, snippet in snippets.items()}


@contextmanager
def _locked(root: str) -> Iterator[None]:
    folder = state_dir(root)
    try:
        make_state_dir(root)
        fd = open_private(os.path.join(folder, LOCK_FILE), os.O_WRONLY)
        lock = open(fd, "w")  # noqa: SIM115 - held for the block
    except OSError as exc:
        raise StateDirUnwritable(f"cannot write the state directory {folder}: {exc}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _write(root: str, section: str, entries: dict[str, Any]) -> None:
    """Replace one section (processes or snippets) of the file, keeping the other."""
    body = {"version": 1, "processes": {}, **_read_body(root), section: entries}
    write_state_json(definitions_path(root), body)


def _refuse_config_name(name: str, config_names: set[str], doing: str) -> None:
    if name in config_names:
        raise Conflict(
            f"{name} is defined in the config file; it cannot be {doing} at runtime",
            suggestion=f"edit processes.{name} in the config file instead",
        )


def define(
    root: str, name: str, definition: RuntimeDefinition, config_names: set[str], force: bool
) -> bool:
    """Store a definition; False when the identical one is already there (nothing written)."""
    _refuse_config_name(name, config_names, "redefined")
    with _locked(root):
        definitions = read_definitions(root)
        existing = definitions.get(name)
        if existing == definition:
            return False
        if existing is not None and not force:
            raise Conflict(
                f"{name} is already defined at runtime with a different definition",
                suggestion=f"pass --force to replace it, or `procler remove {name}` first",
                data={"name": name, "existing": existing.to_json()},
            )
        definitions[name] = definition
        _write(root, "processes", {n: d.to_json() for n, d in definitions.items()})
    return True


def remove(root: str, name: str, config_names: set[str]) -> bool:
    """Drop a runtime definition; False when there was none (removing twice is fine)."""
    _refuse_config_name(name, config_names, "removed")
    if not os.path.exists(definitions_path(root)):
        return False  # nothing was ever defined: do not create the state directory for it
    with _locked(root):
        definitions = read_definitions(root)
        if name not in definitions:
            return False
        del definitions[name]
        _write(root, "processes", {n: d.to_json() for n, d in definitions.items()})
    return True


def saved_snippet(name: str, saved: dict[str, Any]) -> Snippet:
    """A saved snippet as the config model holds it (source: runtime)."""
    return Snippet(
        name,
        str(saved["command"]),
        description=str(saved.get("description") or ""),
        context=registry.exec_context(saved.get("context"), saved.get("container")),
        container=saved.get("container"),
        tags=tuple(str(t) for t in saved.get("tags") or ()),
        source="runtime",
    )


def save_snippet(
    root: str, name: str, snippet: dict[str, Any], config_names: set[str], force: bool
) -> bool:
    """Store a snippet; False when it is already stored as given (nothing written). A
    different one of that name is replaced only with force."""
    if name in config_names:
        raise Conflict(
            f"snippet {name} is defined in the config file; it cannot be saved at runtime",
            suggestion=f"edit snippets.{name} in the config file instead",
        )
    with _locked(root):
        snippets = read_snippets(root)
        if snippets.get(name) == snippet:
            return False
        if name in snippets and not force:
            raise Conflict(
                f"snippet {name} is already saved with a different definition",
                suggestion=f"pass --force to replace it, or `procler snippet remove {name}`",
                data={"name": name, "existing": snippets[name]},
            )
        snippets[name] = snippet
        _write(root, "snippets", snippets)
    return True


def remove_snippet(root: str, name: str) -> bool:
    """Drop a saved snippet; False when there was none."""
    if not os.path.exists(definitions_path(root)):
        return False
    with _locked(root):
        snippets = read_snippets(root)
        if name not in snippets:
            return False
        del snippets[name]
        _write(root, "snippets", snippets)
    return True
