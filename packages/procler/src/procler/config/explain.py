"""A plain-language account of a project, generated from the model.

Each sentence about a process is the process's name followed by the clauses that apply to
it (what runs, where, what it waits for, health, restarts, ports); each clause is one small
function of the resolved ProcessSpec the supervisor runs (and of the project, for what a
dependency is), and the rules it states come from where the supervisor takes them
(procler.states: the start grace, when a run had settled, when a check turns unhealthy),
so a sentence cannot promise what the supervisor does not do. A new model field needs
one new clause, not new templates. Hints (`hints`) point out what is valid but likely
wrong, such as waiting for a process with a health check only to have `started`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import Dependency, HealthCheck, ProcessSpec, ProjectConfig
from procler.config.replicas import declared_view

_CONDITIONS = {
    "started": "has started",
    "healthy": "is healthy",
    "log_ready": "has logged its ready line",
    "completed_successfully": "has completed successfully",
}


def format_duration(seconds: float) -> str:
    """10.0 -> '10s', 0.5 -> '500ms', 90 -> '1m30s', 5400 -> '1h30m'."""
    if seconds < 1:
        return f"{seconds * 1000:g}ms"
    whole = int(seconds)
    if whole != seconds or whole < 60:
        return f"{seconds:g}s"
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [(hours, "h"), (minutes, "m"), (secs, "s")]
    return "".join(f"{n}{unit}" for n, unit in parts if n)


def join_words(words: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def plural(count: int, noun: str) -> str:
    suffix = "es" if noun.endswith("s") else "s"
    return f"{count} {noun}{'' if count == 1 else suffix}"


def probe_phrase(check: HealthCheck) -> str:
    if check.http is not None:
        low, high = check.http.expect_status
        status = str(low) if low == high else f"{low}-{high}"
        return f"{check.http.method} {check.http.url} answers {status}"
    if check.tcp is not None:
        return f"{check.tcp.host}:{check.tcp.port} accepts TCP connections"
    if check.log is not None:
        return f"an output line matches /{check.log}/"
    return f"`{check.exec}` exits 0"


def _runs(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    what = " ".join(spec.args) if spec.args is not None else spec.command
    settings = spec.container_spec
    if settings is not None:
        where = settings.image or settings.container
        kind = f"{spec.context} {'image' if settings.image else 'container'}"
        return f"runs `{what}` in {kind} {where}" if what else f"runs {kind} {where}"
    return f"runs `{what}`"


def _where(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    if spec.container_spec is not None:
        return ""
    root = str(cfg.root)
    rel = os.path.relpath(spec.cwd, root)
    if rel == ".":
        return "in the project root"
    return f"in {spec.cwd}" if rel.startswith("..") else f"in {rel}/"


def _waits(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    waits = []
    for dep in spec.depends_on:
        wait = f"{dep.name} {_CONDITIONS[dep.condition]}"
        if dep.min is not None:
            wait = f"at least {dep.min} of {dep.name}'s instances {_CONDITIONS[dep.condition]}"
        if _hint(dep, cfg) is not None:
            wait += f" (only started: {dep.name} has a health check; consider `condition: healthy`)"
        waits.append(wait)
    again = [d.name for d in spec.depends_on if d.restart]
    text = f"once {join_words(waits)}" if waits else ""
    return text + (f", and again each time {join_words(again)} comes back" if again else "")


def _hint(dep: Dependency, cfg: ProjectConfig) -> str | None:
    """Waiting only for `started` on a process whose health check says when it is ready:
    the dependent may start before it accepts connections (the migration race)."""
    other = cfg.processes.get(dep.name)
    if dep.condition != "started" or other is None or other.healthcheck is None:
        return None
    return (
        f"waits for {dep.name} to have started, not to be healthy, while {dep.name} has a "
        f"health check: it may start before {dep.name} is ready; consider "
        f"`depends_on: [{{name: {dep.name}, condition: healthy}}]`"
    )


def _health(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    check = spec.healthcheck
    if check is None:
        return ""
    late = format_duration(
        states.unhealthy_after(check.interval, check.retries, check.start_period)
    )
    if check.kind == "log":
        text = (
            f"it is healthy once {probe_phrase(check)}, for the rest of that run, and "
            f"unhealthy if none has after {late}"
        )
    else:
        grace = (
            f", not counting its first {format_duration(check.start_period)}"
            if check.start_period
            else ""
        )
        text = (
            f"it is healthy when {probe_phrase(check)} (probed every few ms until then, then "
            f"every {format_duration(check.interval)}), and unhealthy after "
            f"{plural(check.retries, 'failed check')} in a row, one counted per "
            f"{format_duration(check.interval)}{grace}"
        )
    if check.successes > 1:
        text += f", and counted passing after {check.successes} passes in a row"
    if check.restart_on_unhealthy:
        text += "; it is restarted if it turns unhealthy"
    return text


def _pace(check: HealthCheck) -> str:
    text = f"checked every {format_duration(check.interval)}"
    if check.start_period:
        text += f" after {format_duration(check.start_period)}"
    if check.successes > 1:
        text += f", {check.successes} passes in a row to count"
    return text


def _liveness(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    check = spec.liveness
    if check is None:
        return ""
    what = (
        f"an output line matches /{check.log}/ within each check"
        if check.kind == "log"
        else probe_phrase(check)
    )
    return (
        f"it is alive while {what} ({_pace(check)}); "
        f"{plural(check.retries, 'failure')} in a row {'end' if check.retries > 1 else 'ends'} "
        "the run, and its restart policy decides"
    )


def _restart(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    schedule = spec.schedule
    if schedule is not None:
        zone = f" ({schedule.timezone})" if schedule.timezone else ""
        text = f"it runs on the schedule {schedule.written}{zone}, one run at a time, once armed by `start` or `up`"
        if schedule.run_on_start:
            text += ", and once as soon as it is armed"
        if schedule.timeout is not None:
            text += f"; a run longer than {format_duration(schedule.timeout)} is killed"
        return text + "; a run that fails waits for the next slot"
    policy = spec.restart
    if policy.policy == "no":
        return "it is not restarted"
    codes = join_words([str(c) for c in spec.success_exit_codes], "or")
    when = (
        "whenever it ends"
        if policy.policy == "always"
        else f"when it exits with a code other than {codes}"
    )
    backoff = policy.backoff
    known_good = (
        "before its health check first passes"
        if spec.healthcheck is not None
        else f"within {format_duration(states.START_GRACE)}"
    )
    return (
        f"it is restarted {when} (at most {plural(policy.max_restarts, 'time')}, counted "
        f"afresh after {format_duration(backoff.reset_after)} up): at once if the run had been "
        + ("healthy" if spec.healthcheck is not None else "up")
        + (
            f" or up {format_duration(states.SETTLED_AFTER)}"
            if spec.healthcheck is not None
            else f" {format_duration(states.SETTLED_AFTER)}"
        )
        + f", else after {format_duration(backoff.initial)}, doubling up to "
        f"{format_duration(backoff.max)}; a run started by a command that ends {known_good} "
        f"is failed, not restarted"
    )


def _stop(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    name = spec.stop_signal if spec.stop_signal.isdigit() else f"SIG{spec.stop_signal}"
    then = f"{name}, then SIGKILL after {format_duration(spec.stop_timeout)}"
    stop = spec.stop_command
    if stop is not None:
        bound = stop.bound(spec.stop_timeout)
        return (
            f"it is stopped by `{stop.command}` (given {format_duration(bound)} to end it), "
            f"then {then} if it still runs"
        )
    default = ProcessSpec(name=spec.name)
    if (spec.stop_signal, spec.stop_timeout) == (default.stop_signal, default.stop_timeout):
        return ""
    return f"it is stopped with {then}"


def _autostart(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    if spec.autostart:
        return ""
    return (
        "it is not started by up, ci or group starts (autostart: false) unless a process "
        "they start depends on it"
    )


def _input(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    return "its stdin stays open for `procler send`" if spec.stdin else ""


def _ready(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    if not spec.ready_log_line:
        return ""
    return f"it is log_ready once an output line (stdout or stderr) matches /{spec.ready_log_line}/"


def _memory(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    if spec.max_memory is None:
        return ""
    return f"it is restarted when its memory stays above {spec.max_memory // (1024 * 1024)} MiB"


def _daemon(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    daemon = spec.daemon
    if daemon is None:
        return ""
    found = f"pidfile {daemon.pidfile}" if daemon.pidfile else f"/{daemon.match_pattern}/"
    adopt = " (one already running is adopted)" if daemon.adopt_existing else ""
    return f"it daemonizes, and the daemon found by {found} is followed{adopt}"


def _watch(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    watch = spec.watch
    if watch is None:
        return ""
    action = watch.action
    if action == "restart":
        does = "it is restarted" + (" with what depends on it" if watch.cascade else "")
    elif action.startswith("signal:"):
        does = f"it is sent {action.removeprefix('signal:')}"
    else:
        does = f"`{action.removeprefix('exec:')}` runs"
    return f"{does} when {join_words(list(watch.paths), 'or')} change"


def _ports(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    ports = [str(p) for p in spec.ports]
    return f"it uses port{'s' if len(ports) > 1 else ''} {join_words(ports)}" if ports else ""


def _replicas(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    if spec.replicas == 1:
        return ""
    return f"{spec.replicas} replicas ({spec.name}-0 to {spec.name}-{spec.replicas - 1})"


# (clause, joins the sentence with a space or after a semicolon)
CLAUSES: tuple[tuple[Callable[[ProcessSpec, ProjectConfig], str], str], ...] = (
    (_runs, " "),
    (_where, " "),
    (_waits, " "),
    (_health, "; "),
    (_liveness, "; "),
    (_ready, "; "),
    (_daemon, "; "),
    (_restart, "; "),
    (_stop, "; "),
    (_autostart, "; "),
    (_input, "; "),
    (_memory, "; "),
    (_watch, "; "),
    (_ports, "; "),
    (_replicas, "; "),
)


def process_sentence(spec: ProcessSpec, cfg: ProjectConfig) -> str:
    text = spec.name
    for clause, glue in CLAUSES:
        part = clause(spec, cfg)
        if part:
            text += glue + part
    return text + "."


def start_order_sentence(levels: list[list[str]]) -> str:
    steps = [join_words(level) + (" together" if len(level) > 1 else "") for level in levels]
    return f"Start order: {', then '.join(steps)}." if steps else ""


def explain(config: ProjectConfig) -> dict[str, Any]:
    """The paragraph, the derived start order and the counts; a process with replicas is
    described once, as the config writes it."""
    config = replace(config, processes=declared_view(config.processes, config.replica_sets))
    graph = DependencyGraph.from_config(config)
    levels = graph.start_levels()
    runtime = [p for p in config.processes.values() if p.source == "runtime"]
    groups = config.groups.values()
    sentences = [
        f"This project defines {plural(len(config.processes), 'process')}"
        + (f" ({len(runtime)} defined at runtime)" if runtime else "")
        + f" and {plural(len(config.groups), 'group')}."
    ]
    sentences += [process_sentence(config.processes[n], config) for n in graph.start_order()]
    sentences.append(start_order_sentence(levels))
    sentences += [
        f"Group {g.name} holds {join_words(list(g.processes))}"
        + (f" ({g.description})" if g.description else "")
        + (f" and stops {join_words(list(g.stop_order))} first." if g.stop_order else ".")
        for g in groups
    ]
    sentences += [
        f"Recipe {r.name} runs {plural(len(r.steps), 'step')}"
        + (f" ({r.description})" if r.description else "")
        + (", going on after a failed step." if r.on_error == "continue" else ".")
        for r in config.recipes.values()
    ]
    if config.snippets:
        sentences.append(f"Snippets: {join_words(list(config.snippets))}.")
    processes = config.processes.values()
    paragraph = " ".join(s for s in sentences if s)
    hints = [
        {"process": spec.name, "dependency": dep.name, "hint": f"{spec.name} {hint}"}
        for spec in processes
        for dep in spec.depends_on
        if (hint := _hint(dep, config)) is not None
    ]
    return {
        "paragraph": paragraph,
        "hints": hints,
        # Procler 0.3's keys, for agents written against it
        "explanation": paragraph,
        "process_count": len(config.processes),
        "group_count": len(config.groups),
        "recipe_count": len(config.recipes),
        "start_order": levels,
        "counts": {
            "processes": len(config.processes),
            "config_processes": len(config.processes) - len(runtime),
            "runtime_processes": len(runtime),
            "groups": len(config.groups),
            "recipes": len(config.recipes),
            "snippets": len(config.snippets),
            "health_checks": sum(p.healthcheck is not None for p in processes),
            "liveness_checks": sum(p.liveness is not None for p in processes),
            "dependencies": sum(len(p.depends_on) for p in processes),
        },
    }
