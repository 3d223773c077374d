"""`procler import process-compose`: process-compose's processes as ours. Its keys have
ours beside them (command, working_dir, environment, availability, depends_on, the
readiness and liveness probes with Kubernetes' thresholds, ready_log_line, shutdown,
disabled, namespace, replicas, description, is_interactive); every key left behind is a
warning at its file:line:column."""

from __future__ import annotations

import re
import signal
from pathlib import Path
from typing import Any

from procler.config.keys import SIGNALS
from procler.config.yaml_nodes import YNode
from procler.export.imported import Imported, Source, as_data, literal, mapping, source_tree

CONDITIONS = {
    "process_started": "started",
    "process_healthy": "healthy",
    "process_log_ready": "log_ready",
    "process_completed_successfully": "completed_successfully",
}
TOP_LEVEL_KEPT = ("version", "processes", "environment")
PROCESS_KEYS = (
    "command",
    "working_dir",
    "environment",
    "availability",
    "depends_on",
    "readiness_probe",
    "liveness_probe",
    "ready_log_line",
    "shutdown",
    "disabled",
    "namespace",
    "replicas",
    "description",
    "is_interactive",
)
POLICIES = {"always": "always", "on_failure": "on-failure", "on-failure": "on-failure", "no": "no"}
# Kubernetes' probe timing, as our check keys
TIMING = {
    "initial_delay_seconds": "start_period",
    "period_seconds": "interval",
    "timeout_seconds": "timeout",
    "success_threshold": "successes",
    "failure_threshold": "retries",
}


def import_process_compose(sources: list[tuple[Path, str]]) -> Imported:
    """`sources`: the file and its overrides (path, text), merged in order."""
    source = sources[0][0]
    root = source_tree(
        sources,
        "a process-compose file (a YAML mapping with processes)",
        "check the YAML (process-compose's own errors say where)",
    )
    result = Imported()
    where = Source(source, result)
    for key, _ in root.pairs:
        if key.text not in TOP_LEVEL_KEPT:
            where.warn("", key.text, key, f"top-level `{key.text}` is not imported")
    top = mapping(root)
    shared = _environment(top["environment"]) if "environment" in top else {}
    processes = top.get("processes")
    for name_node, node in processes.pairs if processes is not None else []:
        result.processes[name_node.text] = _process(name_node.text, node, shared, where)
    return result


def _process(name: str, node: YNode, shared: dict[str, str], where: Source) -> dict[str, Any]:
    keys = mapping(node)
    for key_node, _ in node.pairs:
        if key_node.text not in PROCESS_KEYS:
            where.warn(name, key_node.text, key_node, f"`{key_node.text}` is not imported")
    # process-compose runs the command with a shell at each start: `$VAR` is the shell's
    process: dict[str, Any] = {
        "command": literal(keys["command"].text) if "command" in keys else "true"
    }
    if "working_dir" in keys:
        process["cwd"] = keys["working_dir"].text
    env = {**shared, **(_environment(keys["environment"]) if "environment" in keys else {})}
    if env:
        process["env"] = env
    for key in ("description", "namespace"):
        if key in keys:
            process[key] = keys[key].text
    if "replicas" in keys and keys["replicas"].text.isdigit() and int(keys["replicas"].text) > 1:
        process["replicas"] = int(keys["replicas"].text)
    if keys.get("disabled") is not None and keys["disabled"].text == "true":
        process["autostart"] = False
    if keys.get("is_interactive") is not None and keys["is_interactive"].text == "true":
        process["stdin"] = True
    # process-compose's default is not to restart; Procler's is on-failure.
    process["restart"] = (
        _restart(name, keys["availability"], where) if "availability" in keys else "no"
    )
    if "depends_on" in keys:
        process["depends_on"] = _depends_on(name, keys["depends_on"], where)
    for theirs, ours in (("readiness_probe", "healthcheck"), ("liveness_probe", "liveness")):
        if theirs in keys:
            check = _probe(name, theirs, keys[theirs], where)
            if check is not None:
                process[ours] = check
    if "ready_log_line" in keys:  # a text the line contains; ours is a regular expression
        process["ready_log_line"] = re.escape(keys["ready_log_line"].text)
    if "shutdown" in keys:
        process.update(_shutdown(name, keys["shutdown"], where))
    return process


def _environment(node: YNode) -> dict[str, str]:
    if node.kind == "map":
        return {k.text: literal("" if v.is_null else v.text) for k, v in node.pairs}
    pairs = (item.text.partition("=") for item in node.items if item.kind == "scalar")
    return {key: literal(value) for key, _, value in pairs}


def _seconds(name: str, key: str, node: YNode, where: Source) -> str | None:
    if node.kind == "scalar" and re.fullmatch(r"\d+(\.\d+)?", node.text):
        return f"{node.text}s"
    where.warn(name, key, node, f"{as_data(node)!r} is not a number of seconds: not imported")
    return None


def _restart(name: str, node: YNode, where: Source) -> Any:
    keys = mapping(node)
    restart: dict[str, Any] = {"policy": "no"}  # process-compose's default
    if "restart" in keys:
        written = keys["restart"].text
        if written == "exit_on_failure":
            where.warn(
                name,
                "availability.restart",
                keys["restart"],
                "exit_on_failure stops every process when this one fails: Procler does not "
                "restart it, and leaves the others running",
            )
        restart["policy"] = POLICIES.get(written, "no")
    if "backoff_seconds" in keys:
        initial = _seconds(name, "availability.backoff_seconds", keys["backoff_seconds"], where)
        if initial is not None:
            restart["backoff"] = {"initial": initial, "max": initial}
    limit = keys.get("max_restarts")
    if limit is not None and limit.text.isdigit() and int(limit.text) > 0:
        restart["max_restarts"] = int(limit.text)
    elif restart["policy"] != "no":
        where.warn(
            name,
            "availability.max_restarts",
            limit or node,
            "process-compose restarts without a limit: Procler's limit is 5 (set max_restarts)",
        )
    for key_node, _ in node.pairs:
        if key_node.text not in ("restart", "backoff_seconds", "max_restarts"):
            where.warn(name, f"availability.{key_node.text}", key_node, "not imported")
    return restart["policy"] if list(restart) == ["policy"] else restart


def _depends_on(name: str, node: YNode, where: Source) -> list[Any]:
    out: list[Any] = []
    for key, value in node.pairs:
        condition = mapping(value).get("condition")
        written = condition.text if condition is not None else "process_started"
        if written == "process_completed":
            where.warn(
                name,
                "depends_on",
                condition or key,
                f"{key.text}: process_completed (any exit code) becomes completed_successfully",
            )
        out.append(
            {"name": key.text, "condition": CONDITIONS.get(written, "completed_successfully")}
        )
    return out


def _probe(name: str, key: str, node: YNode, where: Source) -> dict[str, Any] | None:
    keys = mapping(node)
    check: dict[str, Any] = {}
    if "exec" in keys:
        run = mapping(keys["exec"])
        if "command" in run:
            check["exec"] = literal(run["command"].text)
        if "working_dir" in run:
            where.warn(
                name,
                f"{key}.exec.working_dir",
                run["working_dir"],
                "the probe runs in the process's cwd",
            )
    elif "http_get" in keys:
        http = {k: v.text for k, v in mapping(keys["http_get"]).items()}
        host, port = http.get("host", "127.0.0.1"), http.get("port", "80")
        path = http.get("path", "/")
        check["http"] = {"url": f"{http.get('scheme', 'http')}://{host}:{port}{path}"}
    if not check:
        where.warn(name, key, node, "a probe without exec or http_get is not imported")
        return None
    for theirs, ours in TIMING.items():
        if theirs not in keys:
            continue
        value = keys[theirs]
        if ours in ("successes", "retries"):
            if value.text.isdigit() and int(value.text) > 0:
                check[ours] = int(value.text)
            else:
                where.warn(
                    name, f"{key}.{theirs}", value, f"{value.text!r} is not a count: not imported"
                )
        else:
            seconds = _seconds(name, f"{key}.{theirs}", value, where)
            if seconds is not None:
                check[ours] = seconds
    return check


def _shutdown(name: str, node: YNode, where: Source) -> dict[str, Any]:
    """shutdown: {command, timeout_seconds, signal (a number)} as stop_command and
    stop_signal (timeout_seconds without a command: stop_timeout)."""
    keys = mapping(node)
    out: dict[str, Any] = {}
    timeout = None
    if "timeout_seconds" in keys:
        timeout = _seconds(name, "shutdown.timeout_seconds", keys["timeout_seconds"], where)
    if "command" in keys:
        command = literal(keys["command"].text)
        out["stop_command"] = {"command": command, "timeout": timeout} if timeout else command
    elif timeout is not None:
        out["stop_timeout"] = timeout
    if "signal" in keys:
        written = keys["signal"].text
        try:
            named = signal.Signals(int(written)).name.removeprefix("SIG")
        except ValueError:
            named = written.removeprefix("SIG")
        if named in SIGNALS:
            out["stop_signal"] = named
        else:
            where.warn(
                name,
                "shutdown.signal",
                keys["signal"],
                f"signal {written} is not one Procler sends",
            )
    if "parent_only" in keys:
        where.warn(
            name,
            "shutdown.parent_only",
            keys["parent_only"],
            "Procler signals the whole process group",
        )
    return out
