"""`procler export kubernetes`: a Deployment per process (a Job for a one-shot, a CronJob for
a schedule), a Service when it declares ports, probes from its health check. Kubernetes has no
start order and no output watching: the report says so where the config relies on them."""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import urlsplit

from procler.config.model import HealthCheck, ProcessSpec, ProjectConfig
from procler.export.fidelity import Conversion, dump_yaml, image_of, project_name

KUBERNETES_FILE = "kubernetes.yaml"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def dns_name(name: str) -> str:
    """A DNS-1123 label (what Kubernetes names must be): lowercase, '-' for '_'."""
    return re.sub(r"[^a-z0-9-]", "-", name.lower()).strip("-")[:63] or "process"


def export_kubernetes(config: ProjectConfig, chosen: list[ProcessSpec]) -> Conversion:
    result = Conversion()
    project = project_name(config)
    documents: list[dict[str, Any]] = []
    for spec in chosen:
        container = _container(spec, result)
        if container is None:
            continue
        if dns_name(spec.name) != spec.name:
            result.warn(spec.name, "name", f"named {dns_name(spec.name)} (Kubernetes names)")
        labels = {
            "app.kubernetes.io/name": dns_name(spec.name),
            "app.kubernetes.io/part-of": project,
            "app.kubernetes.io/managed-by": "procler",
        }
        metadata: dict[str, Any] = {"name": dns_name(spec.name), "labels": labels}
        if spec.namespaces[0] != "default":
            metadata["namespace"] = dns_name(spec.namespaces[0])
        documents.append(_workload(spec, container, metadata, result))
        if spec.ports:
            documents.append(_service(spec, metadata))
        for dep in spec.depends_on:
            result.warn(
                spec.name,
                "depends_on",
                f"Kubernetes has no start order: {spec.name} may start before {dep.name} is "
                f"{dep.condition}; it must retry until {dep.name} answers (or wait in an "
                "initContainer)",
            )
    chosen_names = {spec.name for spec in chosen}
    for group in config.groups.values():
        if not chosen_names.intersection(group.processes):
            continue
        result.warn(
            group.name,
            "groups",
            "Kubernetes has no groups: select the members by their app.kubernetes.io/name labels",
        )
    if documents:
        result.files[KUBERNETES_FILE] = dump_yaml(*documents)
    return result


def _container(spec: ProcessSpec, result: Conversion) -> dict[str, Any] | None:
    image = image_of(spec, result, "Kubernetes", "deploy that container's image instead")
    if image is None:
        return None
    settings = spec.container_spec
    container: dict[str, Any] = {"name": dns_name(spec.name), "image": image}
    if spec.args is not None or spec.command is not None:
        container["args"] = spec.written_argv()  # like compose: the image's entrypoint stays
    if settings is None:
        container["workingDir"] = spec.cwd
        result.warn(
            spec.name,
            "cwd",
            "the project folder is not mounted in the pod: the image must hold the code "
            f"at {spec.cwd}",
        )
    elif settings.volumes:
        result.warn(
            spec.name,
            f"{spec.context}.volumes",
            "volumes are not carried: declare PersistentVolumeClaims",
        )
    if spec.env_files:
        result.warn(
            spec.name,
            "env_file",
            "its values are written into the manifest: keep secrets in a Secret (envFrom) instead",
        )
    if spec.env:
        container["env"] = [{"name": k, "value": v} for k, v in spec.env]
    if spec.ports:
        container["ports"] = [{"containerPort": p} for p in spec.ports]
    if spec.healthcheck is not None:
        probe = _probe(spec.name, "healthcheck", spec.healthcheck, result)
        if probe is not None:
            container["readinessProbe"] = probe
            if spec.healthcheck.successes > 1:
                container["readinessProbe"] = {
                    **probe,
                    "successThreshold": spec.healthcheck.successes,
                }
            if spec.healthcheck.restart_on_unhealthy and spec.liveness is None:
                container["livenessProbe"] = probe
    if spec.liveness is not None:  # Kubernetes' success threshold of a liveness probe is 1
        probe = _probe(spec.name, "liveness", spec.liveness, result)
        if probe is not None:
            container["livenessProbe"] = probe
    if spec.stop_command is not None:  # run before the TERM, as here
        command = ["/bin/sh", "-c", spec.stop_command.command]
        container["lifecycle"] = {"preStop": {"exec": {"command": command}}}
    if spec.stdin:
        container["stdin"] = True
    if spec.max_memory is not None:
        container["resources"] = {"limits": {"memory": str(spec.max_memory)}}
        result.warn(
            spec.name,
            "max_memory",
            "becomes a memory limit: the kernel kills the container at the limit "
            "instead of a restart after two samples above it",
        )
    _uncarried(spec, result)
    return container


def _whole_seconds(value: float, lowest: int) -> int:
    return max(lowest, math.ceil(value))


def _probe(name: str, key: str, check: HealthCheck, result: Conversion) -> dict[str, Any] | None:
    probe: dict[str, Any]
    if check.kind == "log":
        result.warn(name, f"{key}.log", "Kubernetes cannot watch the output for a line: no probe")
        return None
    if check.kind == "exec":
        probe = {"exec": {"command": ["/bin/sh", "-c", check.exec or "true"]}}
    elif check.http is not None:
        url = urlsplit(check.http.url)
        port = url.port or (443 if url.scheme == "https" else 80)
        probe = {"httpGet": {"path": url.path or "/", "port": port}}
        if url.scheme == "https":
            probe["httpGet"]["scheme"] = "HTTPS"
        if url.hostname not in _LOOPBACK:
            result.warn(
                name,
                f"{key}.http",
                f"the kubelet probes the pod itself, not {url.hostname}",
            )
        if check.http.method != "GET" or check.http.expect_status != (200, 399):
            result.warn(
                name,
                f"{key}.http",
                "Kubernetes probes with GET and counts 200-399 as healthy",
            )
    else:
        assert check.tcp is not None  # kind is tcp: the model sets exactly one probe
        probe = {"tcpSocket": {"port": check.tcp.port}}
    probe.update(
        {
            "periodSeconds": _whole_seconds(check.interval, 1),
            "timeoutSeconds": _whole_seconds(check.timeout, 1),
            "failureThreshold": check.retries,
            "initialDelaySeconds": _whole_seconds(check.start_period, 0),
        }
    )
    return probe


def _workload(
    spec: ProcessSpec, container: dict[str, Any], metadata: dict[str, Any], result: Conversion
) -> dict[str, Any]:
    pod: dict[str, Any] = {
        "containers": [container],
        "terminationGracePeriodSeconds": _whole_seconds(spec.stop_timeout, 0),
    }
    selector = {"app.kubernetes.io/name": metadata["labels"]["app.kubernetes.io/name"]}
    template = {"metadata": {"labels": metadata["labels"]}, "spec": pod}
    one_shot = spec.restart.policy == "no" or spec.schedule is not None
    if one_shot:
        pod["restartPolicy"] = "Never" if spec.restart.policy == "no" else "OnFailure"
        job = {"backoffLimit": spec.restart.max_restarts, "template": template}
        if spec.replicas > 1:
            result.warn(spec.name, "replicas", "a Job runs once: use parallelism to run several")
        if spec.schedule is not None and spec.schedule.cron is not None:
            cron: dict[str, Any] = {"schedule": spec.schedule.cron, "jobTemplate": {"spec": job}}
            if spec.schedule.timezone is not None:
                cron["timeZone"] = spec.schedule.timezone
            return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": metadata, "spec": cron}
        if spec.schedule is not None:
            result.warn(
                spec.name, "schedule", "a CronJob needs a cron line: an interval is not kept"
            )
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": job}
    if spec.restart.policy == "on-failure":
        result.warn(
            spec.name,
            "restart.policy",
            "a Deployment restarts its pods whatever their exit; max_restarts is not kept",
        )
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata,
        "spec": {
            "replicas": spec.replicas,
            "selector": {"matchLabels": selector},
            "template": template,
        },
    }


def _service(spec: ProcessSpec, metadata: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": metadata,
        "spec": {
            "selector": {"app.kubernetes.io/name": metadata["labels"]["app.kubernetes.io/name"]},
            "ports": [{"name": f"port-{p}", "port": p, "targetPort": p} for p in spec.ports],
        },
    }


def _uncarried(spec: ProcessSpec, result: Conversion) -> None:
    if not spec.autostart:
        result.warn(
            spec.name,
            "autostart",
            "Kubernetes runs every workload it is given: apply this one apart (or scale it to 0)",
        )
    if spec.stop_signal != "TERM":
        result.warn(
            spec.name, "stop_signal", "Kubernetes stops with TERM (or the image's STOPSIGNAL)"
        )
    if spec.ready_log_line is not None:
        result.warn(spec.name, "ready_log_line", "Kubernetes cannot watch the output: not kept")
    if spec.success_exit_codes != (0,):
        result.warn(spec.name, "success_exit_codes", "Kubernetes counts only exit code 0")
    if spec.daemon is not None:
        result.warn(
            spec.name,
            "daemon",
            "a command that forks and exits ends its pod: run it in the foreground",
        )
