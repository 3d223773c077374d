"""`procler export systemd`: one `.service` per process (user units by default), a `.target`
per group, a `.timer` for a schedule and a `name@.service` template for replicas."""

from __future__ import annotations

from procler.config.model import EnvFile, ProcessSpec, ProjectConfig
from procler.config.replicas import declared_view
from procler.contexts import registry
from procler.contexts.container_kind import ContainerKind
from procler.export.fidelity import Conversion, own_env, project_name
from procler.export.oncalendar import CronUnsupported, on_calendar
from procler.export.units import Specified, assignment, exec_line, render, specifier_safe

Lines = list[tuple[str, str]]


def templated(spec: ProcessSpec) -> bool:
    """Replicas become instances of a `name@.service` template; a timer starts one unit, so a
    scheduled process stays one service (its replicas warned)."""
    return spec.replicas > 1 and spec.schedule is None


class Units:
    """Unit names of one project: every unit is prefixed with it, so stacks never collide."""

    def __init__(self, config: ProjectConfig, chosen: list[ProcessSpec]) -> None:
        self.project = project_name(config)
        self.config = config
        self.chosen = {spec.name: spec for spec in chosen}
        self.declared = declared_view(config.processes, config.replica_sets)

    def service(self, name: str) -> str:
        """The unit to depend on or want: a template's instances are listed one by one."""
        return " ".join(self.instances(name))

    def instances(self, name: str) -> list[str]:
        spec = self.declared[name]
        if templated(spec):
            return [f"{self.project}-{name}@{i}.service" for i in range(1, spec.replicas + 1)]
        return [f"{self.project}-{name}.service"]

    def file_of(self, spec: ProcessSpec) -> str:
        suffix = "@.service" if templated(spec) else ".service"
        return f"{self.project}-{spec.name}{suffix}"

    def one_shots(self) -> set[str]:
        """Processes something waits on to complete: Type=oneshot makes After= mean that."""
        return {
            dep.name
            for spec in self.chosen.values()
            for dep in spec.depends_on
            if dep.condition == "completed_successfully"
        }


def export_systemd(
    config: ProjectConfig, chosen: list[ProcessSpec], user: bool = True
) -> Conversion:
    result = Conversion()
    units = Units(config, chosen)
    wanted_by = "default.target" if user else "multi-user.target"
    one_shots = units.one_shots()
    for spec in chosen:
        timer = _timer(spec, units, result)
        oneshot = spec.name in one_shots or spec.schedule is not None
        result.files[units.file_of(spec)] = render(
            [
                ("Unit", _unit_section(spec, units, result)),
                ("Service", _service_section(spec, units, oneshot, result)),
                ("Install", [] if timer is not None else [("WantedBy", wanted_by)]),
            ]
        )
        if timer is not None:
            result.files[f"{units.project}-{spec.name}.timer"] = timer
    for group in config.groups.values():
        members = [p for p in group.processes if p in units.chosen]
        if not members:
            continue
        result.files[f"{units.project}-{group.name}.target"] = render(
            [
                (
                    "Unit",
                    [
                        ("Description", specifier_safe(group.description or f"group {group.name}")),
                        ("Wants", " ".join(units.service(p) for p in members)),
                    ],
                ),
                ("Install", [("WantedBy", wanted_by)]),
            ]
        )
    return result


def _unit_section(spec: ProcessSpec, units: Units, result: Conversion) -> Lines:
    description = spec.description or f"{spec.name} ({units.project}, from procler)"
    lines: Lines = [("Description", specifier_safe(description))]
    for dep in spec.depends_on:
        if dep.name not in units.chosen:
            result.warn(
                spec.name,
                "depends_on",
                f"{dep.name} is not exported: the dependency on it is dropped",
            )
            continue
        if dep.condition in ("healthy", "log_ready"):
            result.warn(
                spec.name,
                "depends_on",
                f"systemd cannot wait for {dep.name} to be {dep.condition}: downgraded to "
                "started (make it Type=notify to signal readiness)",
            )
        names = units.service(dep.name)
        lines += [("After", names), ("Requires", names)]
    if spec.restart.policy != "no":
        # The restart budget: max_restarts starts within the reset window, then systemd gives up.
        lines.append(("StartLimitBurst", str(spec.restart.max_restarts + 1)))
        lines.append(("StartLimitIntervalSec", f"{spec.restart.backoff.reset_after:g}"))
    return lines


def container_cli(spec: ProcessSpec) -> str:
    """The engine command that runs a process of a container context (docker, podman)."""
    kind = registry.kind(spec.context)
    assert isinstance(kind, ContainerKind)  # a spec with container settings: the schema's rule
    return kind.cli


def _exec_start(spec: ProcessSpec, units: Units) -> Lines:
    settings = spec.container_spec
    if settings is None:
        return [("ExecStart", exec_line(spec.written_argv()))]
    cli = container_cli(spec)
    if settings.container is not None:
        return [
            ("ExecStart", exec_line([cli, "start", "--attach", settings.container])),
            ("ExecStop", exec_line([cli, "stop", settings.container])),
        ]
    name = f"{units.project}-{spec.name}"  # project and process names are safe words
    if templated(spec):
        name = Specified(f"{name}-%i")  # one container per instance
    argv = [cli, "run", "--rm", "--name", name, "--network", settings.network_mode]
    for volume in settings.volumes:
        argv += ["--volume", volume]
    own = own_env(spec, read_by_systemd(spec))
    # A bare --env KEY passes the value systemd read from the EnvironmentFile=; KEY=VALUE wins.
    argv += [a for key in _file_keys(spec) if key not in dict(own) for a in ("--env", key)]
    for key, value in own:
        argv += ["--env", f"{key}={value}"]
    argv.append(settings.image or "")
    if spec.args is not None or spec.command is not None:
        argv += spec.written_argv()
    return [("ExecStart", exec_line(argv)), ("ExecStop", exec_line([cli, "stop", name]))]


def read_by_systemd(spec: ProcessSpec) -> tuple[EnvFile, ...]:
    """The env files systemd reads as Procler does; the others' values go in the unit."""
    return tuple(f for f in spec.env_files if f.plain)


def _file_keys(spec: ProcessSpec) -> list[str]:
    """The keys the env files systemd reads set, once each, in order."""
    return list(dict.fromkeys(key for f in read_by_systemd(spec) for key, _ in f.env))


def _service_section(spec: ProcessSpec, units: Units, oneshot: bool, result: Conversion) -> Lines:
    lines: Lines = []
    if spec.daemon is not None:
        lines.append(("Type", "forking"))
        if spec.daemon.pidfile:
            lines.append(("PIDFile", specifier_safe(spec.daemon.pidfile)))
        else:
            result.warn(
                spec.name,
                "daemon.match_pattern",
                "systemd follows a forking daemon by its pidfile or guesses its main process: "
                "the command-line pattern is not kept (give daemon_pidfile)",
            )
        if spec.daemon.adopt_existing:
            result.warn(spec.name, "daemon.adopt_existing", "systemd starts its own daemon")
    elif oneshot:
        lines.append(("Type", "oneshot"))
        if spec.schedule is None:  # a timer's service must go inactive to run again
            lines.append(("RemainAfterExit", "yes"))
    else:
        lines.append(("Type", "exec"))
    lines += _exec_start(spec, units)
    lines.append(("WorkingDirectory", specifier_safe(spec.cwd)))
    lines += [("EnvironmentFile", specifier_safe(f.path)) for f in read_by_systemd(spec)]
    for env_file in spec.env_files:
        if not env_file.plain:
            result.warn(
                spec.name,
                "env_file",
                f"{env_file.path} uses `export`, a backslash or a comment after a value, which "
                "systemd reads differently: its values are written into the unit instead",
            )
    own = own_env(spec, read_by_systemd(spec))
    if own and spec.container_spec is None:
        lines.append(("Environment", " ".join(assignment(k, v) for k, v in own)))
        overridden = [key for key, _ in own if key in _file_keys(spec)]
        if overridden:
            result.warn(
                spec.name,
                "env",
                f"systemd lets EnvironmentFile= win over Environment=: {', '.join(overridden)} "
                "would take the env file's value; set each in one place only",
            )
    if templated(spec):
        lines.append(("Environment", "PROCLER_REPLICA=%i"))  # the instance number
    if not oneshot:
        lines.append(("Restart", spec.restart.policy))
        lines.append(("RestartSec", f"{spec.restart.backoff.initial:g}"))
    if (
        not oneshot
        and spec.restart.policy != "no"
        and spec.restart.backoff.max != spec.restart.backoff.initial
    ):
        result.warn(
            spec.name,
            "restart.backoff",
            "systemd restarts after a fixed RestartSec (the initial backoff): it does not grow",
        )
    if spec.stop_command is not None and spec.container_spec is None:
        # systemd runs ExecStop=, then signals what is left: the order Procler keeps
        lines.append(("ExecStop", exec_line(["/bin/sh", "-c", spec.stop_command.command])))
        if spec.stop_command.timeout is not None:
            result.warn(
                spec.name,
                "stop_command.timeout",
                "systemd bounds ExecStop= and the stop with TimeoutStopSec= alone "
                "(stop_timeout): the command's own timeout is not kept",
            )
    elif spec.stop_command is not None:
        result.warn(
            spec.name,
            "stop_command",
            f"a process in a container is stopped by `{container_cli(spec)} stop`: the stop "
            "command is not kept",
        )
    lines.append(("KillSignal", f"SIG{spec.stop_signal}"))
    lines.append(("KillMode", "control-group"))
    lines.append(("TimeoutStopSec", f"{spec.stop_timeout:g}"))
    codes = [c for c in spec.success_exit_codes if c != 0]
    if codes:
        lines.append(("SuccessExitStatus", " ".join(str(c) for c in codes)))
    if spec.max_memory is not None:
        lines.append(("MemoryMax", str(spec.max_memory)))
        result.warn(
            spec.name,
            "max_memory",
            "becomes MemoryMax=, a hard limit: the kernel kills the service at the limit "
            "instead of a restart after two samples above it",
        )
    _uncarried(spec, result)
    return lines


def _uncarried(spec: ProcessSpec, result: Conversion) -> None:
    if spec.liveness is not None:
        result.warn(
            spec.name,
            f"liveness.{spec.liveness.kind}",
            "systemd has no liveness checks: not kept (WatchdogSec= needs the program's help)",
        )
    if spec.stdin:
        result.warn(
            spec.name, "stdin", "a service's stdin is /dev/null: `procler send` has no peer"
        )
    if not spec.autostart:
        result.warn(
            spec.name,
            "autostart",
            "every unit is wanted by the target: leave it disabled to keep it from starting",
        )
    if spec.healthcheck is not None:
        result.warn(
            spec.name,
            f"healthcheck.{spec.healthcheck.kind}",
            "systemd has no health checks: not kept (a watchdog needs the program's help)",
        )
    if spec.ready_log_line is not None:
        result.warn(spec.name, "ready_log_line", "systemd cannot watch the output: not kept")
    if spec.ports:
        result.warn(
            spec.name, "ports", "systemd does not check ports: the program binds them itself"
        )


def _timer(spec: ProcessSpec, units: Units, result: Conversion) -> str | None:
    if spec.schedule is None:
        return None
    if spec.replicas > 1:
        result.warn(spec.name, "replicas", "a timer starts one service per run: replicas not kept")
    try:
        if spec.schedule.cron is None:
            raise CronUnsupported("an interval schedule has no OnCalendar spelling")
        calendar = on_calendar(spec.schedule.cron)
    except CronUnsupported as exc:
        result.warn(spec.name, "schedule", f"{exc}: no timer written, the service runs once")
        return None
    return render(
        [
            (
                "Unit",
                [
                    (
                        "Description",
                        specifier_safe(f"schedule of {spec.name}: {spec.schedule.written}"),
                    )
                ],
            ),
            ("Timer", [("OnCalendar", calendar), ("Unit", units.file_of(spec))]),
            ("Install", [("WantedBy", "timers.target")]),
        ]
    )
