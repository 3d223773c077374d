"""Load a project: the YAML (checked, substituted, resolved) merged with runtime definitions."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from agentcli.errors import AgentError
from agentcli.files import read_regular_text
from procler.config.build import build_project
from procler.config.definitions import (
    definitions_path,
    read_definitions,
    read_snippets,
    saved_snippet,
)
from procler.config.findings import Finding, Findings, child
from procler.config.keys import CONFIG
from procler.config.merge import merge, without_resets
from procler.config.model import ProjectConfig
from procler.config.replicas import Templates
from procler.config.scaling import read_scale
from procler.config.specs import INVALID
from procler.config.state_files import StateFileCorrupt
from procler.config.typed_vars import substitute_typed, variables
from procler.config.yaml_nodes import YNode, parse_yaml
from procler.errors import ConfigInvalid
from procler.project import config_files, project_root

MAX_CONFIG_BYTES = 8 << 20  # far past any config (its YAML holds at most 20,000 nodes)


def read_config_text(config_path: str, findings: Findings) -> str | None:
    """A config file's text; None (with a finding in it) when it cannot be read. A pipe or
    a device is refused, never read (it could block forever or never end)."""
    try:
        return read_regular_text(config_path, MAX_CONFIG_BYTES, "the config file")
    except AgentError as exc:  # not a regular file, or too large: a finding at its start
        findings.at(1, 1, "", exc.message, "name a regular YAML file", config_path)
        return None
    except UnicodeDecodeError as exc:
        findings.at(
            *byte_position(exc.object, exc.start),
            "",
            f"the config file is not UTF-8: byte {exc.object[exc.start]:#04x} cannot start a "
            "character here",
            "save the file as UTF-8",
            config_path,
        )
        return None
    except OSError as exc:  # the file as a whole: at its start
        findings.at(1, 1, "", f"cannot read the config file: {exc}", "check the file", config_path)
        return None


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of a byte offset in UTF-8 data."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, offset) + 1, column


def read_texts(config_path: str, findings: Findings) -> dict[str, str] | None:
    """The text of each of the config's files (project.config_files), in merge order;
    None (with a finding in the file) when one cannot be read."""
    texts: dict[str, str] = {}
    for file in config_files(config_path):
        path = os.path.abspath(file)
        text = read_config_text(path, findings)
        if text is None:
            return None
        texts[path] = text
    return texts


def config_tree(texts: Mapping[str, str], findings: Findings) -> YNode | None:
    """The files' YAML merged in order (procler.config.merge), each value knowing its file;
    None when one of them cannot be parsed (an override may be empty)."""
    merged: YNode | None = None
    for index, (file, text) in enumerate(texts.items()):
        node = parse_yaml(text, findings, file, empty_ok=index > 0)
        if node is None and findings:
            return None
        if node is not None:
            merged = node if merged is None else merge(merged, node, CONFIG)
    return None if merged is None else without_resets(merged)


def check_config(
    config_path: str,
    environ: Mapping[str, str] | None = None,
    *,
    with_runtime: bool = True,
    texts: Mapping[str, str] | None = None,
    scale: Mapping[str, Any] | None = None,
) -> tuple[ProjectConfig | None, Findings]:
    """The project and every finding; the project is None when the YAML cannot be read.

    `config_path` names the config's files (project.find_config), merged with the
    project's config.local.yaml; `texts` are the files' contents when the caller has
    read them already (or holds an earlier version of them: then those are the files);
    `scale` the `procler scale` counts to check in place of the stored ones (with_runtime
    reads those)."""
    files = (
        list(texts)
        if texts is not None
        else [os.path.abspath(f) for f in config_files(config_path)]
    )
    findings = Findings(files[0], files)
    if texts is None:
        texts = read_texts(config_path, findings)
        if texts is None:
            return None, findings
    root_node = config_tree(texts, findings)
    if root_node is None:
        return None, findings
    environ = os.environ if environ is None else environ
    templates: Templates = {}
    substitute_typed(CONFIG, root_node, "", variables(root_node, environ), findings, templates)
    tree = CONFIG.check(root_node, "", findings)
    if tree is INVALID:
        return None, findings
    root = project_root(files[0])
    if scale is None:
        scale = read_scale(root, findings) if with_runtime else {}
    config = build_project(tree, root, files, findings, environ, templates, scale)
    return (_with_runtime(config, findings) if with_runtime else config), findings


def _with_runtime(config: ProjectConfig, findings: Findings) -> ProjectConfig:
    """Add runtime definitions after the config's processes (source: runtime)."""
    root = str(config.root)
    try:
        definitions = read_definitions(root)
        saved = read_snippets(root)
    except StateFileCorrupt as exc:
        where = definitions_path(root)
        hint = f"fix or delete {where} (it holds the `procler define` definitions)"
        findings.items.append(Finding(where, exc.line, exc.column, "", str(exc), hint))
        return config
    processes = dict(config.processes)
    for name, definition in definitions.items():
        if name in processes or name in config.replica_sets:
            findings.add(
                child("processes", name),
                f"{name} is defined both in the config and at runtime (procler define)",
                f"run `procler remove {name}` to drop the runtime definition",
            )
            continue
        processes[name] = definition.to_spec(name)
    snippets = dict(config.snippets)
    for name, snippet in saved.items():
        snippets.setdefault(name, saved_snippet(name, snippet))
    return replace(config, processes=processes, snippets=snippets)


def invalid(findings: Findings) -> ConfigInvalid:
    """The CONFIG_INVALID error carrying every finding in data.errors."""
    count = len(findings.items)
    first = findings.ordered()[0].one_line()
    return ConfigInvalid(
        f"the config has {count} error{'s' if count != 1 else ''}; first: {first}",
        data={"errors": findings.as_dicts()},
    )


def load_project(config_path: str) -> ProjectConfig:
    """The valid project, or ConfigInvalid (exit 2) with every finding in data.errors."""
    config, findings = check_config(config_path)
    if findings or config is None:
        raise invalid(findings)
    return config
