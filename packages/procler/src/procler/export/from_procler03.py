"""`procler import procler03`: a Procler 0.3.x config (valid as is) rewritten into the
canonical spelling: `container: NAME` becomes `docker: {container: NAME}`, the probes
`test`/`http_get`/`tcp_socket` become `exec`/`http.url`/`tcp`. Everything else, comments
included, is kept by ruamel.yaml's round trip (a renamed key keeps its place and comment)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from agentcli.errors import InputError
from agentcli.files import read_regular_text
from procler.config.load import check_config
from procler.contexts import registry
from procler.export.imported import MAX_IMPORT_BYTES, Imported


def import_procler03(source: Path) -> Imported:
    config, findings = check_config(str(source), with_runtime=False)
    if findings or config is None:
        raise InputError(
            f"{source} is not a valid Procler config",
            suggestion=f"run `procler --config {source} config validate` and fix its errors",
            data={"errors": findings.as_dicts()},
        )
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096
    document = yaml.load(read_regular_text(source, MAX_IMPORT_BYTES, str(source)))
    result = Imported()
    for warning in findings.warning_dicts():
        parts = warning["path"].split(".")
        process = parts[1] if len(parts) > 1 and parts[0] == "processes" else ""
        result.warn(
            process,
            ".".join(parts[2:]) or warning["path"],
            warning["message"],
            f"{source.name}:{warning['line']}:{warning['column']}",
        )
    for name, process in (document.get("processes") or {}).items():
        _canonical(process)
        result.processes[str(name)] = process
    result.groups = dict(document.get("groups") or {})
    out = io.StringIO()
    yaml.dump(document, out)
    result.document = out.getvalue()
    return result


def _rename(mapping: Any, old: str, new: str, value: Any) -> None:
    """Replace `old` by `new: value` at the same position, moving its comment along."""
    position = list(mapping).index(old)
    comment = mapping.ca.items.pop(old, None)
    del mapping[old]
    mapping.insert(position, new, value)
    if comment is not None:
        mapping.ca.items[new] = comment


def _canonical(process: Any) -> None:
    if "container" in process:
        where = registry.exec_context(process.get("context"), process["container"])
        _rename(process, "container", where, {"container": process["container"]})
    check = process.get("healthcheck")
    if not isinstance(check, dict):
        return
    if "test" in check:
        _rename(check, "test", "exec", check["test"])
    if "http_get" in check:
        _rename(check, "http_get", "http", {"url": check["http_get"]})
    if "tcp_socket" in check:
        host, _, port = str(check["tcp_socket"]).rpartition(":")
        _rename(check, "tcp_socket", "tcp", {"host": host or "127.0.0.1", "port": int(port)})
