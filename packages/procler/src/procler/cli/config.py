"""The handlers of the configuration commands (config init/validate/explain/show,
list; declared in procler.declarations.config): find the project, call the core, shape the
answer. define and remove are handled in procler.cli.definitions, help-llm and config path
in procler.cli.guide. Each imports the config core only when it runs.
"""

import os

from agentcli.commands import Command
from agentcli.errors import UsageError
from procler.errors import (
    ConfigExists,
)
from procler.project import CONFIG_DIR, CONFIG_FILE, find_config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from procler.config.model import ProjectConfig


def config_path(values: "dict[str, Any]") -> "str":
    return find_config(os.getcwd(), values.get("config"))


def project(values: "dict[str, Any]") -> "ProjectConfig":
    """The current project, valid (ConfigInvalid / ConfigNotFound otherwise)."""
    from procler.config.load import load_project

    return load_project(config_path(values))


def _write_atomic(path: "str", text: "str") -> "None":
    temp = f"{path}.tmp-{os.getpid()}"
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temp, path)


def init(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.template import CONFIG_TEMPLATE, GITIGNORE

    cwd = os.getcwd()
    home = os.path.expanduser("~")
    if os.path.realpath(cwd) == os.path.realpath(home):
        raise UsageError(
            f"refusing to create a project in your home directory ({home}): every directory "
            "below it would belong to that project",
            suggestion="cd into the project's directory and run `procler config init` there",
        )
    folder = os.path.join(cwd, CONFIG_DIR)
    config = os.path.join(folder, CONFIG_FILE)
    if os.path.exists(config) and not values["force"]:
        raise ConfigExists(f"{config} already exists", data={"config": config})
    # Planned first: a skill file the user changed is refused before anything is written.
    skills = _install_skills(cwd, dry_run=True) if values.get("skills") else None
    os.makedirs(folder, exist_ok=True)
    written = []
    for path, text in ((config, CONFIG_TEMPLATE), (os.path.join(folder, ".gitignore"), GITIGNORE)):
        if path == config or values["force"] or not os.path.exists(path):
            _write_atomic(path, text)
            written.append(path)
        elif path != config and _ignore_local(path, GITIGNORE):
            written.append(path)
    answer: dict[str, Any] = {"config": config, "root": cwd, "written": written}
    if skills is not None:
        answer["skills"] = _install_skills(cwd, dry_run=False)
    return answer


def _install_skills(root: "str", dry_run: "bool") -> "dict[str, Any]":
    from agentcli.skill_install import install_skills
    from procler.cli.skill import skill_files

    return install_skills({"project": root, "dry_run": dry_run}, "procler", skill_files())


def _ignore_local(path: "str", template: "str") -> "bool":
    """An existing .procler/.gitignore gets the lines of ours it lacks (config.local.yaml
    came later), appended; True when it did."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    have = {line.strip() for line in text.splitlines()}
    missing: list[str] = []
    comment = ""
    for line in template.splitlines():
        if line.startswith("#"):
            comment = line
        elif line not in have:
            missing += [comment, line] if comment and comment not in have else [line]
    if not missing:
        return False
    glue = "" if not text or text.endswith("\n") else "\n"
    _write_atomic(path, text + glue + "\n".join(missing) + "\n")
    return True


def validate(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.load import check_config, invalid

    path = config_path(values)
    config, findings = check_config(path)
    files = {"config": findings.files[0], "config_files": findings.files}
    if findings or config is None:
        # the very error `reload`, `up`... answer for this file (one code, one message)
        error = invalid(findings)
        error.suggestion = "fix each error at the file:line in data.errors, then validate again"
        error.data = {
            "valid": False,
            **files,
            **error.data,
            "warnings": findings.warning_dicts(),
        }
        raise error
    from procler.config.explain import plural
    from procler.config.replicas import declared_view

    processes = len(declared_view(config.processes, config.replica_sets))
    groups = len(config.groups)
    warnings = findings.warning_dicts()
    return {
        "valid": True,
        **files,
        "root": str(config.root),
        "summary": f"{plural(processes, 'process')}, {plural(groups, 'group')}, "
        "no errors" + (f", {plural(len(warnings), 'warning')}" if warnings else ""),
        "processes": processes,
        "groups": groups,
        "warnings": warnings,
    }


def explain(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.explain import explain as explain_config

    config = project(values)
    return {"config": str(config.config_path), **explain_config(config)}


def show(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.serialize import config_json

    config = project(values)
    shown = config_json(config)
    if values.get("origins"):
        from procler.config.findings import Findings
        from procler.config.load import config_tree, read_texts
        from procler.config.merge import origins

        files = list(config.config_files)
        findings = Findings(files[0], files)
        texts = read_texts(config_path(values), findings)
        tree = None if texts is None else config_tree(texts, findings)
        shown["origins"] = {} if tree is None else origins(tree)
    return shown


def list_processes(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.last_valid import load
    from procler.config.serialize import process_json, process_summary
    from procler.selection import tagged

    config, warning = load(config_path(values))  # a broken file: the last valid config
    row = process_json if values.get("resolve") else process_summary
    rows = [row(config.processes[name]) for name in tagged(config, values)]
    listed = {"processes": rows, "count": len(rows)}
    return {**listed, "config_warning": warning} if warning else listed


def config_snippet_names(path: "str") -> "set[str]":
    """Names of the YAML snippets (a saved snippet cannot shadow one)."""
    return set(yaml_config(path).snippets)


def yaml_config(path: "str") -> "ProjectConfig":
    """The YAML config alone (no runtime definitions), valid (ConfigInvalid otherwise)."""
    from procler.config.load import check_config, invalid

    config, findings = check_config(path, with_runtime=False)
    if findings or config is None:
        raise invalid(findings)
    return config
