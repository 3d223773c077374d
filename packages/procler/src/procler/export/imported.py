"""What every import produces: Procler config data (processes in file order) and warnings;
then the config text, alone or merged into an existing config (CONFLICT on a clash)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agentcli.errors import InputError
from procler.config.yaml_nodes import YNode
from procler.errors import Conflict
from procler.export.fidelity import FidelityWarning, dump_yaml

MAX_IMPORT_BYTES = 8 << 20  # a Procfile, a compose file or a config: never megabytes


@dataclass
class Imported:
    processes: dict[str, dict[str, Any]] = field(default_factory=dict)
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    warnings: list[FidelityWarning] = field(default_factory=list)
    document: str | None = None  # a whole config already rendered (comments kept)

    def warn(self, process: str, key: str, message: str, at: str = "") -> None:
        self.warnings.append(FidelityWarning(process, key, message, at))


class Source:
    """Where an imported value was written, for warnings: FILE:LINE:COLUMN (the file the
    node came from when several were merged)."""

    def __init__(self, path: Path, result: Imported) -> None:
        self.name = path.name
        self.result = result

    def warn(self, process: str, key: str, node: YNode, message: str) -> None:
        name = Path(node.file).name if node.file else self.name
        self.result.warn(process, key, message, f"{name}:{node.line}:{node.column}")


# The file each tool reads over its main one by default (as `-f` given again).
OVERRIDES = {
    "compose.yaml": "compose.override.yaml",
    "compose.yml": "compose.override.yml",
    "docker-compose.yaml": "docker-compose.override.yaml",
    "docker-compose.yml": "docker-compose.override.yml",
    "process-compose.yaml": "process-compose.override.yaml",
    "process-compose.yml": "process-compose.override.yml",
}


def with_override(path: Path) -> list[Path]:
    """The file, then its conventional override beside it when there is one."""
    override = OVERRIDES.get(path.name)
    beside = path.with_name(override) if override else None
    return [path, beside] if beside is not None and beside.is_file() else [path]


def source_tree(sources: list[tuple[Path, str]], what: str, hint: str) -> YNode:
    """The files (the main one, then its overrides) as one YAML tree, merged as compose
    merges its files (mappings merge, the rest replaces; an `environment` list merges
    by key); each node keeps its file, so warnings name it. INPUT_ERROR when one is not
    a YAML mapping."""
    from agentcli.errors import InputError
    from procler.config.findings import Findings
    from procler.config.merge import merge
    from procler.config.yaml_nodes import parse_yaml

    names = [str(path) for path, _ in sources]
    findings = Findings(names[0], names)
    merged: YNode | None = None
    for path, text in sources:
        node = parse_yaml(text, findings, str(path))
        if node is None or node.kind != "map":
            raise InputError(
                f"{path} is not {what}", suggestion=hint, data={"errors": findings.as_dicts()}
            )
        node = _keyed_environment(node)
        merged = node if merged is None else merge(merged, node, None)
    assert merged is not None
    return merged


def _keyed_environment(node: YNode) -> YNode:
    """`environment: [K=V, ...]` as the mapping {K: V}, so that files merge it by key."""
    if node.kind != "map":
        return node
    pairs = []
    for key, value in node.pairs:
        if key.text == "environment" and value.kind == "seq":
            value = replace(
                value, kind="map", items=[], pairs=[_pair(item) for item in value.items]
            )
        pairs.append((key, _keyed_environment(value)))
    return replace(node, pairs=pairs)


def _pair(item: YNode) -> tuple[YNode, YNode]:
    name, _, value = item.text.partition("=")
    return replace(item, text=name), replace(item, text=value, tag="tag:yaml.org,2002:str")


def mapping(node: YNode) -> dict[str, YNode]:
    return {k.text: v for k, v in node.pairs} if node.kind == "map" else {}


def as_data(node: YNode) -> Any:
    """Scalars as their text (their values are strings to us), containers recursively."""
    if node.kind == "map":
        return {k.text: as_data(v) for k, v in node.pairs}
    if node.kind == "seq":
        return [as_data(v) for v in node.items]
    return None if node.is_null else node.text


def literal(text: str) -> str:
    """A string from another tool, kept literal in our config (`${` is ours: written `$${`)."""
    return text.replace("${", "$${")


def new_config(result: Imported) -> str:
    if result.document is not None:
        return result.document
    data: dict[str, Any] = {"version": 1, "processes": result.processes}
    if result.groups:
        data["groups"] = result.groups
    return dump_yaml(data)


def merged_config(existing: str, result: Imported, config_path: Path) -> str:
    """The existing config (comments kept) with the imported processes added; the same
    definition under the same name is left as is. Conflict (nothing written) when a name is defined differently on both sides."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096
    document = _config_document(yaml, existing, config_path)
    for section, incoming in (("processes", result.processes), ("groups", result.groups)):
        current = document.get(section) or {}
        clashes = [n for n, d in incoming.items() if n in current and _plain(current[n]) != d]
        if clashes:
            raise Conflict(
                f"{section} {', '.join(clashes)} already defined differently in {config_path}",
                suggestion="rename or remove them on one side, then import again",
                data={"conflicts": [{"section": section, "name": n} for n in clashes]},
            )
    for section, incoming in (("processes", result.processes), ("groups", result.groups)):
        if not incoming:
            continue
        if document.get(section) is None:
            document[section] = {}
        for name, definition in incoming.items():
            if name not in document[section]:
                document[section][name] = definition
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _config_document(yaml: Any, text: str, config_path: Path) -> Any:
    """The config merged into, as a mapping; InputError (exit 2) when it is not YAML or not
    a mapping, saying where but never quoting it (it may be any file, secrets included)."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    suggestion = "fix it (`procler config validate`) or write to another file with -o"
    try:
        document = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(f"{config_path}{where}: {problem}", suggestion=suggestion) from None
    except YAMLError:
        raise InputError(f"{config_path}: not valid YAML", suggestion=suggestion) from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise InputError(f"{config_path}: not a Procler config (a mapping)", suggestion=suggestion)
    return document


def _plain(node: Any) -> Any:
    """ruamel's round-trip containers as plain dicts and lists, for comparison."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node
