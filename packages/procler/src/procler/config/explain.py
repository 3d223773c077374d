"""A plain-language account of a project, generated from the model.

Each sentence about a process is the process's name followed by the clauses that apply to
it (what runs, where, what it waits for, health, restarts, ports); each clause is one small
function of the ProcessSpec, so a new model field needs one new clause, not new templates.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from procler.config.graph import DependencyGraph
from procler.config.model import HealthCheck, ProcessSpec, ProjectConfig
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


def _runs(spec: ProcessSpec, root: str) -> str:
    what = " ".join(spec.args) if spec.args is not None else spec.command
    if spec.docker is not None:
        where = spec.docker.image or spec.docker.container
        kind = "image" if spec.docker.image else "container"
        return f"runs `{what}` in docker {kind} {where}" if what else f"runs docker {kind} {where}"
    return f"runs `{what}`"


def _where(spec: ProcessSpec, root: str) -> str:
    if spec.context == "docker":
        return ""
    rel = os.path.relpath(spec.cwd, root)
    if rel == ".":
        return "in the project root"
    return f"in {spec.cwd}" if rel.startswith("..") else f"in {rel}/"


def _waits(spec: ProcessSpec, root: str) -> str:
    waits = [f"{d.name} {_CONDITIONS[d.condition]}" for d in spec.depends_on]
    again = [d.name for d in spec.depends_on if d.restart]
    text = f"once {join_words(waits)}" if waits else ""
    return text + (f", and again each time {join_words(again)} comes back" if again else "")


def _health(spec: ProcessSpec, root: str) -> str:
    check = spec.healthcheck
    if check is None:
        return ""
    text = f"it is healthy when {probe_phrase(check)} ({_pace(check)})"
    if check.restart_on_unhealthy:
        text += " and restarted if it turns unhealthy"
    return text


def _pace(check: HealthCheck) -> str:
    text = f"checked every {format_duration(check.interval)}"
    if check.start_period:
        text += f" after {format_duration(check.start_period)}"
    if check.successes > 1:
        text += f", {check.successes} passes in a row to count"
    return text


def _liveness(spec: ProcessSpec, root: str) -> str:
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


def _restart(spec: ProcessSpec, root: str) -> str:
    schedule = spec.schedule
    if schedule is not None:
        zone = f" ({schedule.timezone})" if schedule.timezone else ""
        return f"it runs on the schedule {schedule.written}{zone}, one run at a time"
    policy = spec.restart
    if policy.policy == "no":
        return "it is not restarted"
    how = "always restarted" if policy.policy == "always" else "restarted on failure"
    return f"it is {how} (at most {policy.max_restarts} times)"


def _stops(spec: ProcessSpec, root: str) -> str:
    stop = spec.stop_command
    if stop is None:
        return ""
    bound = spec.stop_timeout if stop.timeout is None else stop.timeout
    return (
        f"it is stopped by `{stop.command}` (given {format_duration(bound)} to end it), "
        f"then SIG{spec.stop_signal} if it still runs"
    )


def _autostart(spec: ProcessSpec, root: str) -> str:
    if spec.autostart:
        return ""
    return (
        "it is not started by up, ci or group starts (autostart: false) unless a process "
        "they start depends on it"
    )


def _input(spec: ProcessSpec, root: str) -> str:
    return "its stdin stays open for `procler send`" if spec.stdin else ""


def _ready(spec: ProcessSpec, root: str) -> str:
    return f"it is ready once stdout matches /{spec.ready_log_line}/" if spec.ready_log_line else ""


def _memory(spec: ProcessSpec, root: str) -> str:
    if spec.max_memory is None:
        return ""
    return f"it is restarted when its memory stays above {spec.max_memory // (1024 * 1024)} MiB"


def _daemon(spec: ProcessSpec, root: str) -> str:
    daemon = spec.daemon
    if daemon is None:
        return ""
    found = f"pidfile {daemon.pidfile}" if daemon.pidfile else f"/{daemon.match_pattern}/"
    adopt = " (one already running is adopted)" if daemon.adopt_existing else ""
    return f"it daemonizes, and the daemon found by {found} is followed{adopt}"


def _ports(spec: ProcessSpec, root: str) -> str:
    ports = [str(p) for p in spec.ports]
    return f"it uses port{'s' if len(ports) > 1 else ''} {join_words(ports)}" if ports else ""


# (clause, joins the sentence with a space or after a semicolon)
def _replicas(spec: ProcessSpec, root: str) -> str:
    if spec.replicas == 1:
        return ""
    return f"{spec.replicas} replicas ({spec.name}-0 to {spec.name}-{spec.replicas - 1})"


CLAUSES: tuple[tuple[Callable[[ProcessSpec, str], str], str], ...] = (
    (_runs, " "),
    (_where, " "),
    (_waits, " "),
    (_health, "; "),
    (_liveness, "; "),
    (_ready, "; "),
    (_daemon, "; "),
    (_restart, "; "),
    (_stops, "; "),
    (_autostart, "; "),
    (_input, "; "),
    (_memory, "; "),
    (_ports, "; "),
    (_replicas, "; "),
)


def process_sentence(spec: ProcessSpec, root: str) -> str:
    text = spec.name
    for clause, glue in CLAUSES:
        part = clause(spec, root)
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
    root = str(config.root)
    graph = DependencyGraph.from_config(config)
    levels = graph.start_levels()
    runtime = [p for p in config.processes.values() if p.source == "runtime"]
    groups = config.groups.values()
    sentences = [
        f"This project defines {plural(len(config.processes), 'process')}"
        + (f" ({len(runtime)} defined at runtime)" if runtime else "")
        + f" and {plural(len(config.groups), 'group')}."
    ]
    sentences += [process_sentence(config.processes[n], root) for n in graph.start_order()]
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
    return {
        "paragraph": paragraph,
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
