"""Typed, resolved configuration: what the supervisor runs. Built by the loader, never by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

from procler.config.launch import plan

RestartPolicyName = Literal["no", "on-failure", "always"]
Condition = Literal["started", "healthy", "log_ready", "completed_successfully"]
Source = Literal["config", "runtime"]


@dataclass(frozen=True)
class Backoff:
    initial: float = 1.0
    max: float = 30.0
    reset_after: float = 60.0  # a run this long counts as stable: the restart budget resets


@dataclass(frozen=True)
class RestartPolicy:
    policy: RestartPolicyName = "on-failure"
    max_restarts: int = 5
    backoff: Backoff = field(default_factory=Backoff)


@dataclass(frozen=True)
class HttpProbe:
    url: str  # always resolved: from `url`, or built from `port` + `path`
    method: str = "GET"
    expect_status: tuple[int, int] = (200, 399)
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TcpProbe:
    port: int
    host: str = "127.0.0.1"


@dataclass(frozen=True)
class HealthCheck:
    """Exactly one of exec/http/tcp/log is set (`kind` says which). The readiness check
    (`healthcheck:`) and the liveness check (`liveness:`) are both of this shape."""

    kind: Literal["exec", "http", "tcp", "log"]
    exec: str | None = None
    http: HttpProbe | None = None
    tcp: TcpProbe | None = None
    log: str | None = None  # a regex; healthy once an output line matches
    interval: float = 10.0
    timeout: float = 5.0
    retries: int = 3
    start_period: float = 0.0
    successes: int = 1  # passes in a row that make it healthy (Kubernetes' success_threshold)
    restart_on_unhealthy: bool = False  # readiness only


@dataclass(frozen=True)
class StopCommand:
    """`stop_command:` run (where the process runs, with its environment and cwd) before
    stop_signal; `timeout` bounds the command and the process's exit after it."""

    command: str
    timeout: float | None = None  # None: the process's stop_timeout

    def bound(self, stop_timeout: float) -> float:
        """Seconds the command and the end it brings are given."""
        return stop_timeout if self.timeout is None else self.timeout


@dataclass(frozen=True)
class Dependency:
    name: str
    condition: Condition = "started"
    restart: bool = False  # restart the dependent when this dependency comes back
    # A dependency on a process with replicas becomes one entry per instance (`name` is
    # the instance), each naming the process in `replica_of`; `min` set: at least that
    # many of those instances must meet the condition, else every one of them.
    replica_of: str | None = None
    min: int | None = None


@dataclass(frozen=True)
class ContainerSpec:
    """For a container context (docker, podman): `image` -> Procler owns a container;
    `container` -> an existing one."""

    image: str | None = None
    container: str | None = None
    volumes: tuple[str, ...] = ()
    network_mode: str = "host"


@dataclass(frozen=True)
class EnvFile:
    """An `env_file` entry as loaded: its values are merged into ProcessSpec.env already (what
    Procler runs with); the reference is kept for exports that read the file themselves."""

    path: str  # absolute
    env: tuple[tuple[str, str], ...] = ()  # what it set when the config was loaded
    plain: bool = True  # every reader reads it alike (dotenv.is_plain)


@dataclass(frozen=True)
class DaemonSpec:
    """Procler 0.3's daemon_mode: the command forks a daemon and exits; the daemon, found by
    its pidfile or a command-line pattern, is the process Procler follows."""

    match_pattern: str | None = None  # a regex on the command line (/proc/PID/cmdline)
    pidfile: str | None = None  # absolute once resolved
    container: str | None = None  # where to look for it, for a command exec'd in a container
    adopt_existing: bool = False  # a daemon already running is adopted, not started again


Overlap = Literal["skip", "queue", "replace"]


@dataclass(frozen=True)
class Schedule:
    """`schedule:` resolved: a cron line (five fields; nicknames such as @hourly spelled out)
    or an interval (`interval:`, `@every 10m`), and how its runs are fired."""

    cron: str | None = None  # five fields, as written or from its nickname
    every: float | None = None  # seconds between slots (exclusive with cron)
    timezone: str | None = None  # IANA name; None: the supervisor's local zone
    run_on_start: bool = False  # also run once when the schedule is armed
    overlap: Overlap = "skip"  # a slot while the previous run goes on
    catch_up: Literal["none", "one"] = "none"  # a slot missed while no supervisor ran
    jitter: float = 0.0  # each slot fires up to this many seconds late, at random
    timeout: float | None = None  # a run longer than this is killed (reason timed_out)
    written: str = ""  # the schedule as the config wrote it (cron line or @every ...)


@dataclass(frozen=True)
class WatchSpec:
    """`watch:`: files whose change triggers `action` (globs relative to the process's cwd)."""

    paths: tuple[str, ...]
    exclude: tuple[str, ...] = ()
    debounce: float = 0.3  # a burst of changes within this quiet time is one trigger
    action: str = "restart"  # restart | signal:NAME | exec:COMMAND
    cascade: bool = False  # also restart what depends on the process


@dataclass(frozen=True)
class ProcessSpec:
    name: str
    command: str | None = None  # launched as config.launch.plan decides
    args: tuple[str, ...] | None = None  # run directly, no shell
    cwd: str = "."  # absolute once resolved
    env: tuple[tuple[str, str], ...] = ()  # resolved: env_file values, then `env`
    env_files: tuple[EnvFile, ...] = ()
    description: str = ""
    tags: tuple[str, ...] = ()
    ports: tuple[int, ...] = ()
    stop_signal: str = "TERM"
    stop_timeout: float = 10.0
    stop_command: StopCommand | None = None
    restart: RestartPolicy = field(default_factory=RestartPolicy)
    success_exit_codes: tuple[int, ...] = (0,)
    context: str = "local"  # a name of procler.contexts.registry.CONTEXTS
    container_spec: ContainerSpec | None = None  # a container context's settings
    healthcheck: HealthCheck | None = None  # readiness: what `healthy` means
    liveness: HealthCheck | None = None  # failing `retries` times in a row ends the run
    depends_on: tuple[Dependency, ...] = ()
    ready_log_line: str | None = None  # a regex on the output: log_ready once a line matches
    max_memory: int | None = None  # bytes of the process tree's RSS; above it: restart
    daemon: DaemonSpec | None = None
    schedule: Schedule | None = None  # a one-shot the supervisor fires on this schedule
    # `replicas: N` makes N instances NAME-0 ... NAME-(N-1), each a spec of its own naming
    # the process it came from; `replicas` is the config's count (scale may run another,
    # see ProjectConfig.replica_sets), 1 for a process without replicas.
    replicas: int = 1
    replica_of: str | None = None
    replica: int | None = None
    namespaces: tuple[str, ...] = ("default",)
    # false: `up`, `ci`, `start --all` and `group start` leave it alone unless a process
    # they start depends on it; `start NAME` and naming its namespace start it
    autostart: bool = True
    stdin: bool = False  # its stdin is a pipe kept open (`procler send`), not /dev/null
    export_image: str | None = None  # `export: {image: ...}`: the image `procler export` names
    watch: WatchSpec | None = None
    source: Source = "config"

    def argv(self) -> list[str]:
        """What to exec: the argv list, or the command string as `launch.plan` runs it."""
        if self.args is not None:
            return list(self.args)
        return list(plan(self.command or "").argv)

    def written_argv(self) -> list[str]:
        """The argv as the config writes it: args, or `/bin/sh -c COMMAND` unchanged (what
        an export hands to another engine, which runs the shell its own way)."""
        if self.args is not None:
            return list(self.args)
        return ["/bin/sh", "-c", self.command or ""]

    @cached_property  # status asks on every call, and planning parses the command (~0.1 ms)
    def keeps_shell(self) -> bool:
        """The command needs a shell that stays the run's leader (a pipeline, a list...)."""
        return self.args is None and plan(self.command or "").keeps_shell


@dataclass(frozen=True)
class ReplicaSet:
    """A process with `replicas:`: the count the config gives and the count that runs
    (another after `procler scale`)."""

    name: str
    declared: int
    count: int

    @property
    def instances(self) -> tuple[str, ...]:
        return tuple(instance_name(self.name, i) for i in range(self.count))


def instance_name(name: str, index: int) -> str:
    return f"{name}-{index}"


@dataclass(frozen=True)
class Group:
    name: str
    processes: tuple[str, ...]
    description: str = ""
    stop_order: tuple[str, ...] = ()  # empty: the reverse of the start order


@dataclass(frozen=True)
class StepCondition:
    """`when`: a previous step's outcome, or a process's status, at the time the step comes."""

    step: str | None = None
    outcome: str = "succeeded"
    process: str | None = None
    status: str = "running"


@dataclass(frozen=True)
class RecipeStep:
    """One step: `kind` is start, stop, restart, group_start, group_stop, wait, wait_for,
    exec or snippet. `id` names it in a run's records (given, or KIND-POSITION)."""

    kind: str
    id: str
    target: str = ""  # the process, group or command; empty for wait
    seconds: float = 0.0  # for wait
    condition: str = ""  # for wait_for: running, healthy, log_ready, completed_successfully
    idempotent: bool = True  # may a resume run it again after it was interrupted? (exec: no)
    args: tuple[tuple[str, str], ...] = ()  # for snippet
    retries: int = 0
    retry_delay: float = 1.0  # before the first retry; doubling after each, capped at 30 s
    when: StepCondition | None = None
    context: str = "local"
    container: str | None = None
    cwd: str | None = None
    timeout: float = 60.0
    ignore_error: bool = False


@dataclass(frozen=True)
class Recipe:
    name: str
    steps: tuple[RecipeStep, ...]
    description: str = ""
    on_error: Literal["stop", "continue"] = "stop"


@dataclass(frozen=True)
class SnippetArg:
    """A typed argument of a snippet, filled into its `@{name}` placeholders."""

    name: str
    type: Literal["string", "integer", "number", "boolean"] = "string"
    default: str | None = None
    required: bool = False
    choices: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class Snippet:
    name: str
    command: str  # with @{arg} / @{arg:default} placeholders; \@{ is a literal @{
    description: str = ""
    context: str = "local"
    container: str | None = None
    cwd: str | None = None  # relative to the project root
    tags: tuple[str, ...] = ()
    timeout: float = 60.0
    confirm: bool = False  # refuse to run without --yes
    args: tuple[SnippetArg, ...] = ()
    source: Source = "config"


@dataclass(frozen=True)
class LogSettings:
    max_size: int = 10 * 1024 * 1024  # bytes per segment before rotation
    max_files: int = 5  # segments kept per process


@dataclass(frozen=True)
class EventSettings:
    buffer: int = 10_000  # events the supervisor keeps for subscribers resuming (since=SEQ)
    subscriber_queue: int = 1_000  # messages waiting per subscriber before its drops count


@dataclass(frozen=True)
class ProjectConfig:
    root: Path
    config_path: Path  # the first file: the project's
    config_files: tuple[str, ...] = ()  # every file merged, in order (config_path first)
    vars: tuple[tuple[str, str], ...] = ()
    processes: dict[str, ProcessSpec] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    recipes: dict[str, Recipe] = field(default_factory=dict)
    snippets: dict[str, Snippet] = field(default_factory=dict)
    logs: LogSettings = field(default_factory=LogSettings)
    replica_sets: dict[str, ReplicaSet] = field(default_factory=dict)
    events: EventSettings = field(default_factory=EventSettings)
