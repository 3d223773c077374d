"""What every export answers: the files it would write and the fidelity warnings."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from procler.config.model import EnvFile, ProcessSpec, ProjectConfig
from procler.config.replicas import declared_view
from procler.errors import GroupNotFound, ProcessNotFound


@dataclass(frozen=True)
class FidelityWarning:
    """One field the target could not carry as Procler runs it."""

    process: str  # the process (or group) the field belongs to
    field: str  # its key in the config, e.g. healthcheck.log
    message: str
    at: str = ""  # imports: FILE:LINE:COLUMN of the key in the source

    def as_dict(self) -> dict[str, str]:
        out = {"process": self.process, "field": self.field, "message": self.message}
        if self.at:
            out["at"] = self.at
        return out


@dataclass
class Conversion:
    """The files an export produces (name -> content) and its warnings, in order."""

    files: dict[str, str] = field(default_factory=dict)
    warnings: list[FidelityWarning] = field(default_factory=list)

    def warn(self, process: str, key: str, message: str, at: str = "") -> None:
        self.warnings.append(FidelityWarning(process, key, message, at))


def select(config: ProjectConfig, names: tuple[str, ...], group: str | None) -> list[ProcessSpec]:
    """The processes to export: the named ones, a group's, or (neither given) all of them;
    a process with replicas once, under its own name (see config.replicas.declared_view)."""
    processes = declared_view(config.processes, config.replica_sets)
    if group is not None:
        found = config.groups.get(group)
        if found is None:
            raise GroupNotFound(f"no group named {group!r}", data={"groups": sorted(config.groups)})
        names = found.processes
    if not names:
        return list(processes.values())
    missing = [n for n in names if n not in processes]
    if missing:
        raise ProcessNotFound(
            f"no process named {missing[0]!r}", data={"processes": sorted(processes)}
        )
    return [processes[n] for n in dict.fromkeys(names)]


def image_of(spec: ProcessSpec, result: Conversion, engine: str, external: str) -> str | None:
    """The image an engine runs the process from, or None (warned) when there is none: an
    existing container is not the engine's to run (`external` says what to do instead), and a
    local process needs the `export: {image: ...}` hint."""
    settings = spec.container_spec
    if settings is not None and settings.container is not None:
        result.warn(
            spec.name,
            f"{spec.context}.container",
            f"runs in the existing container {settings.container!r}, which {engine} does not "
            f"own: left out; {external}",
        )
        return None
    image = settings.image if settings is not None else spec.export_image
    if image is None:
        result.warn(
            spec.name,
            "export.image",
            f"a local process needs an image to run on {engine}: left out; "
            "add `export: {image: IMAGE}` to it in the config",
        )
    return image


def own_env(spec: ProcessSpec, files: tuple[EnvFile, ...]) -> list[tuple[str, str]]:
    """The pairs of spec.env these env files do not give (the config's `env`, and the files
    left out): what a target that reads the files itself (EnvironmentFile=, compose's
    env_file) still has to set."""
    from_files: dict[str, str] = {}
    for env_file in files:
        from_files.update(env_file.env)
    return [(key, value) for key, value in spec.env if from_files.get(key) != value]


def project_name(config: ProjectConfig) -> str:
    """The project's folder name, as the lowercase name compose and unit files accept."""
    name = re.sub(r"[^a-z0-9_-]+", "-", config.root.name.lower()).strip("-_")
    return name or "procler"


def seconds(value: float) -> str:
    """A duration as compose and systemd read it: 10s, 1.5s, 0s."""
    return f"{value:g}s"


# Plain scalars a YAML 1.1 reader (many engines) takes for a boolean or null: kept strings.
_AMBIGUOUS = re.compile(r"(?i)y|n|yes|no|on|off|true|false|null|~|")


def _quote_ambiguous(data: Any) -> Any:
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if isinstance(data, dict):
        return {k: _quote_ambiguous(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_quote_ambiguous(v) for v in data]
    if isinstance(data, str) and _AMBIGUOUS.fullmatch(data):
        return DoubleQuotedScalarString(data)
    return data


def dump_yaml(data: Any, *more: Any) -> str:
    """YAML from plain data through the library (never string building): block style, keys
    in insertion order, strings like `no` quoted so no reader takes them for booleans. More
    than one document: a multi-document stream (`---` between them)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096  # long paths and commands stay on one line
    out = io.StringIO()
    if more:
        yaml.explicit_start = True
        yaml.dump_all([_quote_ambiguous(d) for d in (data, *more)], out)
    else:
        yaml.dump(_quote_ambiguous(data), out)
    return out.getvalue()
