"""`procler import compose`: each service becomes a docker process (image, command,
environment, ports, volumes, network_mode, healthcheck, depends_on conditions, profiles as
namespace with autostart: false, deploy.replicas, stop_signal and stop_grace_period), the
file's overrides merged over it. Every key left behind is a warning at its
file:line:column."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from agentcli.values import parse_duration
from procler.config.keys import SIGNALS
from procler.config.yaml_nodes import YNode
from procler.contexts.registry import CONTAINER_DEFAULT
from procler.export.imported import Imported, Source, as_data, mapping, source_tree

CONDITIONS = {
    "service_started": "started",
    "service_healthy": "healthy",
    "service_completed_successfully": "completed_successfully",
}
TOP_LEVEL_KEPT = ("services", "name", "version")
SERVICE_KEYS = (
    "image",
    "command",
    "environment",
    "ports",
    "volumes",
    "network_mode",
    "healthcheck",
    "depends_on",
    "profiles",
    "deploy",
    "restart",
    "working_dir",
    "stop_signal",
    "stop_grace_period",
    "labels",
    "container_name",
    "stdin_open",
)


_DOLLAR = re.compile(r"\$\$(\{)?|\$([A-Za-z_][A-Za-z0-9_]*)")


def literal(text: str) -> str:
    """Compose interpolation in our spelling: `$$` is a literal `$` (`$${` stays, our literal
    `${`), `${VAR}` is the same reference, and `$VAR` becomes `${VAR}`."""

    def replace(match: re.Match[str]) -> str:
        if match.group(0).startswith("$$"):
            return "$${" if match.group(1) else "$"
        return "${" + match.group(2) + "}"

    return _DOLLAR.sub(replace, text)


def _duration(name: str, key: str, node: YNode, where: Source) -> str | None:
    """A compose duration Procler reads the same way (10s, 1m30s, 500ms), else warned."""
    try:
        parse_duration(node.text)
    except ValueError:
        where.warn(
            name, key, node, f"duration {node.text!r} is not one Procler reads: not imported"
        )
        return None
    return node.text


def _count(name: str, key: str, node: YNode, where: Source) -> int | None:
    if node.kind == "scalar" and node.text.isdigit():
        return int(node.text)
    where.warn(name, key, node, f"{as_data(node)!r} is not a whole number: not imported")
    return None


def import_compose(sources: list[tuple[Path, str]]) -> Imported:
    """`sources`: the compose file and its overrides (path, text), merged in order."""
    source = sources[0][0]
    root = source_tree(
        sources,
        "a compose file (a YAML mapping with services)",
        "check the YAML (docker compose config shows the errors)",
    )
    result = Imported()
    where = Source(source, result)
    for key, _ in root.pairs:
        if key.text not in TOP_LEVEL_KEPT:
            where.warn("", key.text, key, f"top-level `{key.text}` is not imported")
    services = mapping(root).get("services")
    for name_node, service in services.pairs if services is not None else []:
        process = _service(name_node.text, service, where)
        if process is not None:
            result.processes[name_node.text] = process
    for name, process in result.processes.items():
        depends_on = mapping(mapping(services)[name]).get("depends_on") if services else None
        _drop_missing_dependencies(name, process, depends_on, where)
    return result


def _drop_missing_dependencies(
    name: str, process: dict[str, Any], node: YNode | None, where: Source
) -> None:
    """A dependency on a service left out would make the config invalid: it goes, warned at
    its entry in depends_on (an item of the list form, a key of the mapping form)."""
    entries = (
        [] if node is None else node.items if node.kind == "seq" else [k for k, _ in node.pairs]
    )
    kept = []
    for dep, entry in zip(process.get("depends_on", []), entries, strict=True):
        target = dep if isinstance(dep, str) else dep["name"]
        if target in where.result.processes:
            kept.append(dep)
        else:
            where.warn(
                name, "depends_on", entry, f"{target} is not imported: the dependency is dropped"
            )
    if "depends_on" in process:
        process["depends_on"] = kept


def _service(name: str, node: YNode, where: Source) -> dict[str, Any] | None:
    keys = mapping(node)
    for key_node, _ in node.pairs:
        if key_node.text not in SERVICE_KEYS:
            where.warn(name, key_node.text, key_node, f"`{key_node.text}` is not imported")
    if "image" not in keys:
        where.warn(name, "image", node, "a service without an image (build only) is not imported")
        return None
    docker: dict[str, Any] = {"image": literal(keys["image"].text)}
    # compose's services are Docker's: the default container context
    process: dict[str, Any] = {"context": CONTAINER_DEFAULT, CONTAINER_DEFAULT: docker}
    command = keys.get("command")
    if command is not None:
        if command.kind == "seq":
            process["args"] = [literal(a) for a in as_data(command)]
        else:
            process["args"] = [literal(a) for a in shlex.split(command.text)]
    if "environment" in keys:
        process["env"] = _environment(keys["environment"])
    if "volumes" in keys:
        volumes = [v for v in keys["volumes"].items if v.kind == "scalar"]
        for long_form in (v for v in keys["volumes"].items if v.kind != "scalar"):
            where.warn(name, "volumes", long_form, "long-form volumes are not imported")
        docker["volumes"] = [literal(v.text) for v in volumes]
    network = keys.get("network_mode")
    docker["network_mode"] = network.text if network is not None else "bridge"
    if "ports" in keys:
        process["ports"] = _ports(name, keys["ports"], where)
    if "healthcheck" in keys:
        check = _healthcheck(name, keys["healthcheck"], where)
        if check is not None:
            process["healthcheck"] = check
    if "depends_on" in keys:
        process["depends_on"] = _depends_on(keys["depends_on"])
    # compose's default is not to restart; Procler's is on-failure.
    process["restart"] = _restart(name, keys["restart"], where) if "restart" in keys else "no"
    profiles = keys.get("profiles")
    if profiles is not None and profiles.items:
        # each profile a namespace; not started by `up` (as compose leaves a service with
        # profiles out of `up` until its profile is asked for: `up -n PROFILE` here)
        texts = [p.text for p in profiles.items]
        process["namespace"] = texts[0] if len(texts) == 1 else texts
        process["autostart"] = False
    if "stdin_open" in keys and keys["stdin_open"].text == "true":
        where.warn(
            name,
            "stdin_open",
            keys["stdin_open"],
            "a container's stdin is not kept open by Procler: run it locally with stdin: true "
            "to use `procler send`",
        )
    replicas = mapping(keys["deploy"]).get("replicas") if "deploy" in keys else None
    count = _count(name, "deploy.replicas", replicas, where) if replicas is not None else None
    if count:  # compose's 0 (scaled to none) has no Procler spelling: replicas is at least 1
        process["replicas"] = count
    for key_node, _ in keys["deploy"].pairs if "deploy" in keys else ():
        if key_node.text != "replicas":
            where.warn(
                name,
                f"deploy.{key_node.text}",
                key_node,
                f"`deploy.{key_node.text}` is not imported",
            )
    for key in ("labels", "container_name", "working_dir"):
        if key in keys:
            where.warn(name, key, keys[key], f"`{key}` is not imported")
    if "stop_signal" in keys:
        signal = keys["stop_signal"].text.removeprefix("SIG")
        if signal in SIGNALS:
            process["stop_signal"] = signal
        else:
            where.warn(
                name, "stop_signal", keys["stop_signal"], f"{signal} is not one Procler sends"
            )
    if "stop_grace_period" in keys:
        grace = _duration(name, "stop_grace_period", keys["stop_grace_period"], where)
        if grace is not None:
            process["stop_timeout"] = grace
    return process


def _environment(node: YNode) -> dict[str, str]:
    if node.kind == "map":
        return {k.text: literal("" if v.is_null else v.text) for k, v in node.pairs}
    pairs = (item.text.partition("=") for item in node.items)
    return {key: literal(value) for key, _, value in pairs}


def _ports(name: str, node: YNode, where: Source) -> list[int]:
    ports = []
    for item in node.items:
        text = item.text.removesuffix("/tcp")
        host, _, container = text.rpartition(":")
        host = host.rpartition(":")[2]  # drop an IP prefix
        if item.kind != "scalar" or not container.isdigit() or (host and not host.isdigit()):
            where.warn(name, "ports", item, f"port {as_data(item)!r} is not imported")
            continue
        if host and host != container:
            where.warn(
                name,
                "ports",
                item,
                f"{host}:{container}: Procler publishes a port on the same host port "
                f"(127.0.0.1:{container})",
            )
        ports.append(int(container))
    return ports


def _healthcheck(name: str, node: YNode, where: Source) -> dict[str, Any] | None:
    keys = mapping(node)
    test = keys.get("test")
    if test is None or ("disable" in keys and keys["disable"].text == "true"):
        return None
    words = as_data(test)
    if isinstance(words, str):
        command = words
    elif words and words[0] == "CMD-SHELL":
        command = " ".join(words[1:])
    elif words and words[0] == "CMD":
        command = shlex.join(words[1:])
    else:
        where.warn(name, "healthcheck.test", test, "NONE: the image's healthcheck is disabled")
        return None
    check: dict[str, Any] = {"exec": literal(command)}
    for key_node, value_node in node.pairs:
        key = key_node.text
        if key in ("interval", "timeout", "retries", "start_period"):
            read = _count if key == "retries" else _duration
            value = read(name, f"healthcheck.{key}", value_node, where)
            if value is not None:
                check[key] = value
        elif key not in ("test", "disable"):
            where.warn(name, f"healthcheck.{key}", key_node, f"healthcheck `{key}` is not imported")
    return check


def _depends_on(node: YNode) -> list[Any]:
    if node.kind == "seq":
        return [item.text for item in node.items]
    out: list[Any] = []
    for key, value in node.pairs:
        condition = mapping(value).get("condition")
        mapped = CONDITIONS.get(condition.text, "started") if condition is not None else "started"
        out.append({"name": key.text, "condition": mapped})
    return out


def _restart(name: str, node: YNode, where: Source) -> Any:
    policy, _, count = node.text.partition(":")
    if policy == "unless-stopped":
        where.warn(name, "restart", node, "unless-stopped becomes always")
        return "always"
    if policy == "on-failure" and count.isdigit():
        return {"policy": "on-failure", "max_restarts": int(count)}
    if policy in ("no", "always", "on-failure") and not count:
        return policy
    where.warn(name, "restart", node, f"restart {node.text!r} is not a compose policy: on-failure")
    return "on-failure"
