"""`procler export compose`: one compose service per process, as the Compose Specification
reads it (https://compose-spec.io). What compose cannot carry becomes a fidelity warning."""

from __future__ import annotations

from typing import Any

from procler.config.model import Backoff, HealthCheck, ProcessSpec, ProjectConfig, RestartPolicy
from procler.export.fidelity import (
    Conversion,
    dump_yaml,
    image_of,
    own_env,
    project_name,
    seconds,
)

CONDITIONS = {
    "started": "service_started",
    "healthy": "service_healthy",
    "completed_successfully": "service_completed_successfully",
}
COMPOSE_FILE = "compose.yaml"


def export_compose(config: ProjectConfig, chosen: list[ProcessSpec]) -> Conversion:
    """compose.yaml for the chosen processes; the ones compose cannot run are left out."""
    result = Conversion()
    services: dict[str, Any] = {}
    for spec in chosen:
        service = _service(spec, result)
        if service is not None:
            services[spec.name] = service
    specs = {spec.name: spec for spec in chosen}
    for name, service in services.items():
        _depends_on(specs[name], service, set(services), result)
    for group in config.groups.values():
        if any(p in services for p in group.processes):
            result.warn(
                group.name,
                "groups",
                "compose has no groups: start its services by name "
                f"(docker compose up {' '.join(p for p in group.processes if p in services)})",
            )
    document = {"name": project_name(config), "services": services}
    result.files[COMPOSE_FILE] = dump_yaml(document)
    return result


def _service(spec: ProcessSpec, result: Conversion) -> dict[str, Any] | None:
    image = image_of(
        spec,
        result,
        "compose",
        "declare that container's own service, or reach it as an external one",
    )
    if image is None:
        return None
    service: dict[str, Any] = {"image": image}
    if spec.args is not None or spec.command is not None:
        service["command"] = spec.written_argv()
    if spec.env_files:
        # compose reads them when it starts the service; `environment` wins, as Procler's env.
        service["env_file"] = [f.path for f in spec.env_files]
    own = own_env(spec, spec.env_files)
    if own:
        service["environment"] = dict(own)
    settings = spec.container_spec
    if settings is None:
        # A local process runs in the project folder: mount it at the same path.
        service["working_dir"] = spec.cwd
        service["volumes"] = [f"{spec.cwd}:{spec.cwd}"]
    elif settings.volumes:
        service["volumes"] = list(settings.volumes)
    network = settings.network_mode if settings is not None else "bridge"
    if network != "bridge":
        service["network_mode"] = network  # host: the ports are the host's, nothing to publish
    elif spec.ports:
        service["ports"] = [f"{port}:{port}" for port in spec.ports]
    if spec.healthcheck is not None:
        check = _healthcheck(spec.name, spec.healthcheck, result)
        if check is not None:
            service["healthcheck"] = check
    service["restart"] = _restart(spec, result)
    service["stop_signal"] = f"SIG{spec.stop_signal}"
    service["stop_grace_period"] = seconds(spec.stop_timeout)
    if spec.replicas > 1:
        service["deploy"] = {"replicas": spec.replicas}
    if spec.namespaces != ("default",):
        service["profiles"] = list(spec.namespaces)
    labels = {"procler.process": spec.name}
    if spec.tags:
        labels["procler.tags"] = ",".join(spec.tags)
    if spec.description:
        labels["procler.description"] = spec.description
    service["labels"] = labels
    _uncarried(spec, service, result)
    return {key: _literal(value) for key, value in service.items()}


def _literal(data: Any) -> Any:
    """Compose interpolates `$VAR` in every string: Procler has substituted already, so `$`
    is written as `$$` (a literal dollar)."""
    if isinstance(data, dict):
        return {k: _literal(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_literal(v) for v in data]
    if isinstance(data, str):
        return data.replace("$", "$$")
    return data


def _healthcheck(name: str, check: HealthCheck, result: Conversion) -> dict[str, Any] | None:
    if check.kind == "log":
        result.warn(
            name,
            "healthcheck.log",
            "compose cannot watch the output for a line: no healthcheck written; "
            "give an exec, http or tcp probe instead",
        )
        return None
    if check.kind == "exec":
        test = ["CMD-SHELL", check.exec or "true"]
    elif check.http is not None:
        test = ["CMD-SHELL", f"wget -q -O /dev/null {check.http.url} || exit 1"]
        result.warn(
            name,
            "healthcheck.http",
            "compose probes by running a command: the HTTP probe becomes `wget` in the "
            "container (the image must have it); method, headers and expected status are not kept",
        )
    else:
        assert check.tcp is not None  # kind is tcp: the model sets exactly one probe
        test = ["CMD-SHELL", f"nc -z {check.tcp.host} {check.tcp.port}"]
        result.warn(
            name,
            "healthcheck.tcp",
            "compose probes by running a command: the TCP probe becomes `nc -z` "
            "in the container (the image must have it)",
        )
    if check.restart_on_unhealthy:
        result.warn(
            name,
            "healthcheck.restart_on_unhealthy",
            "compose marks a container unhealthy but does not restart it",
        )
    return {
        "test": test,
        "interval": seconds(check.interval),
        "timeout": seconds(check.timeout),
        "retries": check.retries,
        "start_period": seconds(check.start_period),
    }


def _restart(spec: ProcessSpec, result: Conversion) -> str:
    policy = spec.restart
    if policy.backoff != Backoff():
        result.warn(
            spec.name,
            "restart.backoff",
            "docker restarts with its own backoff (100 ms doubling): the configured one is not kept",
        )
    if policy.policy == "on-failure":
        return f"on-failure:{policy.max_restarts}"
    if policy.policy == "always" and policy.max_restarts != RestartPolicy().max_restarts:
        result.warn(
            spec.name,
            "restart.max_restarts",
            "compose's `always` has no restart limit: max_restarts is not kept",
        )
    return policy.policy


def _depends_on(
    spec: ProcessSpec, service: dict[str, Any], exported: set[str], result: Conversion
) -> None:
    depends: dict[str, Any] = {}
    for dep in spec.depends_on:
        if dep.name not in exported:
            result.warn(
                spec.name,
                "depends_on",
                f"{dep.name} is not in the compose file: the dependency on it is dropped",
            )
            continue
        condition = CONDITIONS.get(dep.condition)
        if condition is None:  # log_ready: compose cannot wait for a line of output
            condition = "service_started"
            result.warn(
                spec.name,
                "depends_on",
                f"waiting for {dep.name}'s ready_log_line has no compose equivalent: "
                "downgraded to service_started (give it a healthcheck and use healthy)",
            )
        depends[dep.name] = {"condition": condition}
    if depends:
        service["depends_on"] = depends


def _uncarried(spec: ProcessSpec, service: dict[str, Any], result: Conversion) -> None:
    """Fields compose has no place for, or reads differently."""
    if spec.success_exit_codes != (0,):
        result.warn(
            spec.name,
            "success_exit_codes",
            "compose counts only exit code 0 as success",
        )
    if spec.ready_log_line is not None:
        result.warn(
            spec.name, "ready_log_line", "compose cannot watch the output for a line: not kept"
        )
    if spec.max_memory is not None:
        service.setdefault("deploy", {})["resources"] = {
            "limits": {"memory": f"{spec.max_memory}b"}
        }
        result.warn(
            spec.name,
            "max_memory",
            "becomes a hard memory limit: the kernel kills the container at the limit "
            "instead of a restart after two samples above it",
        )
    if spec.daemon is not None:
        result.warn(
            spec.name,
            "daemon",
            "a command that forks a daemon and exits ends its container: run the daemon "
            "in the foreground under compose",
        )
    if spec.schedule is not None:
        result.warn(
            spec.name,
            "schedule",
            "compose has no schedules: run it from cron with `docker compose run`",
        )
    if spec.liveness is not None:
        result.warn(
            spec.name,
            "liveness",
            "compose has no liveness check (its healthcheck marks a container unhealthy, "
            "nothing more): not kept",
        )
    if spec.stop_command is not None:
        result.warn(
            spec.name,
            "stop_command",
            "compose stops a container with its stop_signal only: the stop command is not kept",
        )
    if not spec.autostart and spec.namespaces == ("default",):
        result.warn(
            spec.name,
            "autostart",
            "compose starts every service without a profile: give it a namespace (a profile) "
            "to keep it out of `docker compose up`",
        )
    if spec.stdin:
        service["stdin_open"] = True
    if spec.replicas > 1 and "ports" in service:
        result.warn(
            spec.name,
            "replicas",
            "replicas publishing the same host port collide: publish a range or drop the ports",
        )
