"""The last valid config: a broken config file must not lock the user out of a running stack.

The supervisor goes on running the last config it loaded without errors, and keeps a
copy of its files' text in the state directory (mode 0600; JSON: each file and its text,
in merge order). While the file is invalid, commands
work on that config and their answers carry the file's errors as `config_warning`;
commands answered without a supervisor (list, logs, status from disk) read the copy.
With no copy, CONFIG_INVALID says what still works.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from procler import project
from procler.config.findings import Findings
from procler.config.load import check_config, invalid
from procler.config.model import ProjectConfig
from procler.errors import ConfigInvalid

COPY_NAME = "last-valid-config.json"
OLD_COPY_NAME = "last-valid-config.yaml"  # before several files: the one file's text
STILL_WORKS = (
    "fix the errors at the lines in data.errors (`procler config validate` lists them); "
    "meanwhile `procler logs`, `procler daemon logs` and `procler daemon stop` work, and a "
    "running supervisor goes on answering on the last valid config"
)


def copy_path(root: str) -> str:
    return os.path.join(project.state_dir(root), COPY_NAME)


def remember(root: str, texts: Mapping[str, str]) -> None:
    """Keep the files' texts as the last valid config (written whole, then renamed)."""
    path = copy_path(root)
    temp = f"{path}.tmp-{os.getpid()}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"files": list(texts.items())}, handle)
    os.replace(temp, path)


def remembered(config_path: str) -> dict[str, str] | None:
    """The files' texts kept by remember (None: no copy, or one that cannot be read)."""
    root = project.project_root(config_path)
    try:
        with open(copy_path(root), encoding="utf-8") as handle:
            return {str(f): str(t) for f, t in json.load(handle)["files"]}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:  # a copy kept before configs had several files: the first file's text
        with open(os.path.join(project.state_dir(root), OLD_COPY_NAME), encoding="utf-8") as old:
            return {os.path.abspath(project.named_files(config_path)[0]): old.read()}
    except OSError:
        return None


def warning(findings: Findings) -> dict[str, Any]:
    """The `config_warning` of an answer given on the last valid config."""
    count = len(findings.items)
    return {
        "message": f"the config has {count} error{'s' if count != 1 else ''}: procler goes "
        "on using the last valid config until the file is fixed",
        "errors": findings.as_dicts(),
    }


def still_invalid(findings: Findings, message: str | None = None) -> ConfigInvalid:
    """CONFIG_INVALID with every finding, saying what works until the file is fixed."""
    error = invalid(findings)
    return ConfigInvalid(message or error.message, suggestion=STILL_WORKS, data=error.data)


def require_valid(config_path: str) -> ProjectConfig:
    """The project when its file is valid (e.g. to start a supervisor on it)."""
    config, findings = check_config(config_path)
    if findings or config is None:
        raise still_invalid(findings)
    return config


def load(config_path: str) -> tuple[ProjectConfig, dict[str, Any] | None]:
    """The project and no warning; while the file is invalid, the last valid config and the
    file's errors as a warning (CONFIG_INVALID saying what still works without one)."""
    config, findings = check_config(config_path)
    if not findings and config is not None:
        return config, None
    texts = remembered(config_path)
    if texts is None:
        raise still_invalid(findings)
    last, problems = check_config(config_path, texts=texts)
    if problems or last is None:
        raise still_invalid(findings)
    return last, warning(findings)
